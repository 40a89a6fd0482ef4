import { lazy, Suspense, useCallback } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { getDashboardCounts, loadFailure, type DashboardCounts } from '@ejdesk/api-client';
import { formatCount, Page, TextField, TextLink } from '@ejdesk/ui';
import { currentMonth, toApiMonth } from '../../lib/month.ts';
import { AgeingCard } from './AgeingCard.tsx';
import { DashboardCard } from './DashboardCard.tsx';
import styles from './dashboard.module.css';

const ReadPie = lazy(() => import('./ReadPie.tsx'));

const zero: DashboardCounts = {
  total_emails: 0,
  read: 0,
  unread: 0,
  email_ignores: 0,
  ej_not_found: 0,
  email_same_subject_processing: 0,
  email_same_subject_count: 0,
};

const countCards = [
  { label: 'EJs not found Email', key: 'ej_not_found', to: '/ej-not-found' },
  { label: 'Emails processed along with the subject line', key: 'email_same_subject_processing', to: '/same-subject-processing' },
  { label: 'Mails having the same subject line', key: 'email_same_subject_count', to: '/same-subject' },
  { label: 'Emails ignored', key: 'email_ignores', to: '/email-ignored' },
] as const;

// Each count opens its list filtered to the card's month (emails received in it), so the list's
// Total Records is the count that was clicked.
const summary = [
  { label: 'Total Email', key: 'total_emails', to: '/get-all-email-data' },
  { label: 'Read Email', key: 'read', to: '/read-email' },
  { label: 'Unread Email', key: 'unread', to: '/unread-email' },
] as const;

/** One card's month picker; the month lives in the URL (?month= for the Email card, ?data_month= for the other). */
function useMonth(param: string) {
  const [params, setParams] = useSearchParams();
  const month = params.get(param) ?? currentMonth();
  const setMonth = (value: string) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      if (value) next.set(param, value);
      else next.delete(param);
      return next;
    });
  return [month, setMonth] as const;
}

function useCounts(month: string) {
  const apiMonth = toApiMonth(month);
  return useQuery({
    queryKey: ['dashboard-counts', apiMonth],
    enabled: apiMonth !== null,
    // New mail counts at once: the shell's live events refetch it (no polling here).
    meta: { live: true },
    placeholderData: keepPreviousData,
    queryFn: async () => {
      try {
        return await getDashboardCounts(apiMonth!);
      } catch (error) {
        console.error('Error fetching email data', error);
        throw error;
      }
    },
  });
}

function MonthPicker({ month, onChange }: { month: string; onChange: (value: string) => void }) {
  return <TextField label="Select Month" type="month" value={month} onChange={(e) => onChange(e.target.value)} className={styles.month} />;
}

export function DashboardPage() {
  const navigate = useNavigate();
  const [emailMonth, setEmailMonth] = useMonth('month');
  const [dataMonth, setDataMonth] = useMonth('data_month');
  const [disputeMonth, setDisputeMonth] = useMonth('dispute_month');
  const email = useCounts(emailMonth);
  const openSlice = useCallback(
    (slice: 'read' | 'unread') => navigate(`${slice === 'read' ? '/read-email' : '/unread-email'}?month=${emailMonth}`),
    [navigate, emailMonth],
  );
  const data = useCounts(dataMonth);
  const counts = email.data ?? zero;
  const dataCounts = data.data ?? zero;

  return (
    <Page title="Dashboard">
      <div className={styles.cards}>
        {/* The disputes first: what is breached or due today is the day's work. */}
        <AgeingCard month={disputeMonth} picker={<MonthPicker month={disputeMonth} onChange={setDisputeMonth} />} />
        <DashboardCard
          id="email-card-title"
          title="Email"
          picker={<MonthPicker month={emailMonth} onChange={setEmailMonth} />}
          busy={email.isFetching}
          failure={email.isError ? loadFailure('email counts', email.error) : null}
          onRetry={() => void email.refetch()}
        >
          <div className={styles.pieArea}>
            {counts.total_emails > 0 ? (
              <Suspense fallback={<div className={styles.pie} />}>
                <ReadPie
                  read={counts.read}
                  unread={counts.unread}
                  hrefs={{ read: `/read-email?month=${emailMonth}`, unread: `/unread-email?month=${emailMonth}` }}
                  onOpen={openSlice}
                />
              </Suspense>
            ) : (
              <div className={`${styles.pie} ${styles.empty}`}>No emails received in this month.</div>
            )}
          </div>
          <ul className={styles.summary}>
            {summary.map((item) => (
              <li key={item.key}>
                <TextLink to={`${item.to}?month=${emailMonth}`}>{item.label}</TextLink>
                <span className={styles.figure}>{formatCount(counts[item.key])}</span>
              </li>
            ))}
          </ul>
        </DashboardCard>
        <DashboardCard
          id="data-card-title"
          title="Email Data"
          picker={<MonthPicker month={dataMonth} onChange={setDataMonth} />}
          busy={data.isFetching}
          failure={data.isError ? loadFailure('email counts', data.error) : null}
          onRetry={() => void data.refetch()}
        >
          <ul className={styles.countCards}>
            {countCards.map((card) => (
              <li key={card.key}>
                <Link className={styles.countCard} to={`${card.to}?month=${dataMonth}`}>
                  <span className={styles.countValue}>{formatCount(dataCounts[card.key])}</span>
                  <span className={styles.countLabel}>{card.label}</span>
                </Link>
              </li>
            ))}
          </ul>
        </DashboardCard>
      </div>
    </Page>
  );
}
