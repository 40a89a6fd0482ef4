// /disputes/:id: a dispute's story. Its clock (status, due date, age, days overdue, penalty, the
// rule), every email and file row that names it in time order (each linking to its email), the
// status history with who or what set each and why, the form to set the status with a note, and
// the Journal panel: what its journal says happened to the cash. A journal dropped on the page is
// uploaded, and the page shows the verdict it gives.
import type { ReactNode } from 'react';
import { useParams } from 'react-router-dom';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getDispute, isNotFound, loadFailure, setDisputeStatus, type StatusChange } from '@ejdesk/api-client';
import { CutText, ErrorState, formatAmount, formatDateTime, formatShortDate, LoadingState, notify, Page, Panel, TextLink } from '@ejdesk/ui';
import { JournalDrop, useJournalUploads } from '../journals/index.ts';
import { DueDate, statusText } from './clock.tsx';
import { JournalPanel } from './JournalPanel.tsx';
import { StatusForm } from './StatusForm.tsx';
import styles from './disputes.module.css';

export function DisputePage() {
  const { id = '' } = useParams();
  const queryClient = useQueryClient();
  const uploads = useJournalUploads();
  const story = useQuery({ queryKey: ['dispute', id], queryFn: ({ signal }) => getDispute(id, signal) });
  const save = useMutation({
    mutationFn: (change: StatusChange) => setDisputeStatus(Number(id), change),
    onSuccess: (saved) => {
      queryClient.setQueryData(['dispute', id], saved);
      // The table's rows and the dashboard's figures count it anew.
      void queryClient.invalidateQueries({ queryKey: ['ej-records'] });
      void queryClient.invalidateQueries({ queryKey: ['dispute-ageing'] });
      notify.success(`Dispute set to ${statusText(saved)}.`);
    },
  });

  if (story.isPending) return <LoadingState />;
  if (story.isError)
    return (
      <Page title="Dispute">
        <ErrorState
          message={isNotFound(story.error) ? 'No such dispute.' : loadFailure('dispute', story.error)}
          onRetry={isNotFound(story.error) ? undefined : () => void story.refetch()}
        />
      </Page>
    );
  const d = story.data;
  const facts: [string, ReactNode][] = [
    ['Status', statusText(d)],
    ['Set by', d.status_source === 'operator' ? d.status_by : 'the mail'],
    ['Why', d.status_reason || '—'],
    ['Due date', <DueDate key="due" clock={d} />],
    [
      'Age',
      d.age_days === null
        ? '—'
        : `${d.age_days} days since ${formatShortDate(d.clock_started_on)}${d.stopped_on ? ` (stopped ${formatShortDate(d.stopped_on)})` : ''}`,
    ],
    ['Penalty so far', `${formatAmount(d.penalty)} ${d.currency}`],
    ['Rule', d.rule_name ? `${d.rule_name} (${formatAmount(d.penalty_per_day)} ${d.currency} a day after the due date)` : 'No rule covers it'],
    ['Bank', d.bank_name || '—'],
    ['Card No.', d.card_no || '—'],
    ['Transaction Date', formatShortDate(d.transaction_date)],
  ];
  return (
    <JournalDrop onFiles={uploads.send}>
      <Page title={`Dispute ${d.atm_id} / ${d.txt_no}`}>
        <div className={styles.story}>
          <Panel title="Turnaround">
            <dl className={styles.facts}>
              {facts.map(([term, value]) => (
                <div key={term}>
                  <dt>{term}</dt>
                  <dd>{value}</dd>
                </div>
              ))}
            </dl>
          </Panel>
          <Panel title="Set the status">
            <StatusForm
              key={d.status_at as string}
              initial={d.status}
              submitLabel="Save status"
              busy={save.isPending}
              error={save.error}
              onSubmit={(change) => save.mutate(change)}
            />
          </Panel>
        </div>
        <JournalPanel story={d} uploads={uploads} />
        <Panel
          title={
            <>
              Story ({d.rows.length} {d.rows.length === 1 ? 'row' : 'rows'})
            </>
          }
        >
          <ol className={styles.timeline}>
            {d.rows.map((row) => (
              <li key={`${row.source}-${row.record_id ?? row.file_row_id}`}>
                <span className={styles.when}>{row.received_at ? formatDateTime(row.received_at as string) : 'No date'}</span>
                <span>
                  {row.source === 'record' ? 'Dispute row' : 'Result row'}
                  {row.file_name ? (
                    <>
                      {' '}
                      in <strong>{row.file_name}</strong>
                    </>
                  ) : (
                    ' in the mail body'
                  )}
                  {row.email_id !== null && (
                    <>
                      {' '}
                      from {row.email_from || 'an unknown sender'}:{' '}
                      <TextLink to={`/email-details-data/${row.email_id}`}>{row.email_subject || 'the email'}</TextLink>
                    </>
                  )}
                </span>
                <span className={styles.remarks}>
                  <CutText text={[row.msp_remarks, row.short_description].filter(Boolean).join(' / ') || 'No remarks'} />
                </span>
              </li>
            ))}
          </ol>
        </Panel>
        <Panel title="History">
          {d.history.length === 0 ? (
            <p className={styles.muted}>No status change yet: open since the first mail.</p>
          ) : (
            <ol className={styles.timeline}>
              {d.history.map((event) => (
                <li key={event.id}>
                  <span className={styles.when}>{formatDateTime(event.at as string)}</span>
                  <span>
                    <strong>{statusText(event)}</strong> by {event.source === 'operator' ? event.actor : 'the mail'}
                  </span>
                  <span className={styles.remarks}>{event.note || event.reason}</span>
                </li>
              ))}
            </ol>
          )}
        </Panel>
      </Page>
    </JournalDrop>
  );
}
