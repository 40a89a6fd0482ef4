// The dashboard's dispute card, the first card: what needs doing today first (breached, by days
// late; due today; the penalty run up), then the open disputes of the chosen month (by
// transaction date) by age. Each figure opens the EJ table filtered to it, so its Total Records is
// the figure clicked; the figures move live.
import type { ReactNode } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { getDisputeAgeing, loadFailure, type DisputeAgeing } from '@ejdesk/api-client';
import { formatAmount, formatCount } from '@ejdesk/ui';
import { monthDays, toApiMonth } from '../../lib/month.ts';
import { DashboardCard } from './DashboardCard.tsx';
import styles from './dashboard.module.css';

const buckets = [
  { key: 'days_0_2', label: 'Open 0-2 days', from: 0, to: 2 },
  { key: 'days_3_5', label: 'Open 3-5 days', from: 3, to: 5 },
  { key: 'days_6_10', label: 'Open 6-10 days', from: 6, to: 10 },
  { key: 'over_10', label: 'Open over 10 days', from: 11, to: undefined },
] as const;

export function AgeingCard({ month, picker }: { month: string; picker: ReactNode }) {
  const apiMonth = toApiMonth(month);
  const ageing = useQuery({
    queryKey: ['dispute-ageing', apiMonth],
    enabled: apiMonth !== null,
    meta: { live: true },
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) => getDisputeAgeing(apiMonth!, signal),
  });
  const figures: DisputeAgeing = ageing.data ?? {
    days_0_2: 0,
    days_3_5: 0,
    days_6_10: 0,
    over_10: 0,
    breached: 0,
    due_today: 0,
    penalty_exposure: '0',
    currency: '',
  };
  const days = monthDays(month);
  const within = days ? `start_date=${days.first}&end_date=${days.last}` : '';
  const age = (from: number, to: number | undefined) => `age_from=${from}${to === undefined ? '' : `&age_to=${to}`}`;
  return (
    <DashboardCard
      id="dispute-card-title"
      title="Disputes"
      picker={picker}
      busy={ageing.isFetching}
      failure={ageing.isError ? loadFailure('dispute ageing', ageing.error) : null}
      onRetry={() => void ageing.refetch()}
    >
      <ul className={styles.countCards}>
        <li>
          <Link className={`${styles.countCard} ${styles.alarm}`} to={`/email?tat=breached&${within}&ordering=-days_late`}>
            <span className={styles.countValue}>{formatCount(figures.breached)}</span>
            <span className={styles.countLabel}>Breached (past the due date)</span>
          </Link>
        </li>
        <li>
          <Link className={`${styles.countCard} ${styles.warn}`} to={`/email?tat=due_today&${within}`}>
            <span className={styles.countValue}>{formatCount(figures.due_today)}</span>
            <span className={styles.countLabel}>Due today</span>
          </Link>
        </li>
        <li>
          <Link className={`${styles.countCard} ${styles.alarm}`} to={`/email?tat=breached&${within}&ordering=-penalty`}>
            <span className={`${styles.countValue} ${styles.money}`}>
              {formatAmount(figures.penalty_exposure)} {figures.currency}
            </span>
            <span className={styles.countLabel}>Penalty exposure so far</span>
          </Link>
        </li>
        {buckets.map((bucket) => (
          <li key={bucket.key}>
            <Link className={styles.countCard} to={`/email?tat=open&${within}&${age(bucket.from, bucket.to)}`}>
              <span className={styles.countValue}>{formatCount(figures[bucket.key])}</span>
              <span className={styles.countLabel}>{bucket.label}</span>
            </Link>
          </li>
        ))}
      </ul>
    </DashboardCard>
  );
}
