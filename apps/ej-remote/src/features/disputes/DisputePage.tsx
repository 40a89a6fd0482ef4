// /disputes/:id: a dispute's story. Its clock (status, due date, age, days overdue, penalty, the
// rule), its stage and every clock it runs (StagePanel), every email and file row that names it in time order (each linking to its email), the
// status history with who or what set each and why, the form to set the status with a note, and
// the Journal panel: what its journal says happened to the cash. A journal dropped on the page is
// uploaded, and the page shows the verdict it gives. Opened from the EJ table, it steps through that
// list: Previous and Next (or [ and ]), "Save and next", and the way back to the list as it was.
import { useEffect, useState, type ReactNode } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  getDispute,
  isNotFound,
  isRequestMade,
  loadFailure,
  setDisputeNetwork,
  setDisputeStage,
  setDisputeStatus,
  setFollowUp,
  type DisputeStory,
  type FollowUpChange,
  type StageChange,
  type StatusChange,
} from '@ejdesk/api-client';
import { Button, CutText, ErrorState, formatAmount, formatDateTime, formatShortDate, LoadingState, notify, Page, Panel, TextLink } from '@ejdesk/ui';
import { JournalDrop, useJournalUploads } from '../journals/index.ts';
import { DueDate, StatusChip, statusText } from './clock.tsx';
import { JournalPanel } from './JournalPanel.tsx';
import { FollowUpForm } from './FollowUp.tsx';
import { ClocksPanel, StageForm, stageLabels } from './StagePanel.tsx';
import { StatusForm } from './StatusForm.tsx';
import { useTrail, type TrailMoves } from './trail.ts';
import styles from './disputes.module.css';

/** Back to the list, Previous and Next through it, and where this dispute is in it. */
function TrailBar({ trail, onStep, busy }: { trail: TrailMoves; onStep: (by: -1 | 1) => void; busy: boolean }) {
  return (
    <nav className={styles.trail} aria-label="The list this dispute is in">
      <TextLink to={trail.back}>← Back to the list</TextLink>
      {trail.place && <span className={styles.muted}>Dispute {trail.place}</span>}
      <span className={styles.trailButtons}>
        <Button size="small" aria-keyshortcuts="[" disabled={!trail.hasPrevious || busy} onClick={() => onStep(-1)}>
          Previous
        </Button>
        <Button size="small" aria-keyshortcuts="]" disabled={!trail.hasNext || busy} onClick={() => onStep(1)}>
          Next
        </Button>
      </span>
    </nav>
  );
}

export function DisputePage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const uploads = useJournalUploads();
  const trail = useTrail(Number(id));
  const [stepping, setStepping] = useState(false);
  const step = async (by: -1 | 1) => {
    setStepping(true);
    try {
      const to = await trail.step(by);
      if (to !== null) navigate(`/disputes/${to}`);
      else if (by > 0) notify.info('That was the last dispute of the list.');
    } catch {
      notify.error('The next page of the list could not be read. Please try again.');
    } finally {
      setStepping(false);
    }
  };
  // [ and ] step through the list, as they turn a list's pages.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || (event.key !== '[' && event.key !== ']')) return;
      const target = event.target instanceof HTMLElement ? event.target : null;
      if (target?.closest('input, textarea, select, [contenteditable="true"]') || document.querySelector('dialog[open]')) return;
      event.preventDefault();
      void step(event.key === '[' ? -1 : 1);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  });
  const story = useQuery({ queryKey: ['dispute', id], queryFn: ({ signal }) => getDispute(id, signal) });
  const save = useMutation({
    mutationFn: ({ change }: { change: StatusChange; then?: 'next' | undefined }) => setDisputeStatus(Number(id), change),
    onSuccess: (saved, { then }) => {
      // Held by four eyes: nothing changed yet; a second person approves it on Approvals.
      if (isRequestMade(saved)) return notify.info(saved.detail);
      queryClient.setQueryData(['dispute', id], saved);
      // The table's rows and the dashboard's figures count it anew.
      void queryClient.invalidateQueries({ queryKey: ['ej-records'] });
      void queryClient.invalidateQueries({ queryKey: ['dispute-ageing'] });
      notify.success(`Dispute set to ${statusText(saved)}.`);
      if (then === 'next') void step(1);
    },
  });

  const moved = (saved: DisputeStory, said: string) => {
    queryClient.setQueryData(['dispute', id], saved);
    void queryClient.invalidateQueries({ queryKey: ['ej-records'] });
    void queryClient.invalidateQueries({ queryKey: ['dispute-ageing'] });
    notify.success(said);
  };
  const stage = useMutation({
    mutationFn: (change: StageChange) => setDisputeStage(Number(id), change),
    onSuccess: (saved) => moved(saved, `Dispute moved to ${stageLabels[saved.stage].toLowerCase()}.`),
  });
  const network = useMutation({
    mutationFn: (value: string) => setDisputeNetwork(Number(id), value),
    onSuccess: (saved) => moved(saved, saved.network ? `Network set to ${saved.network}: its rule sets' clocks run.` : 'Network cleared.'),
  });

  const follow = useMutation({
    mutationFn: (change: FollowUpChange) => setFollowUp({ ...change, ids: [Number(id)] }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['dispute', id] });
      void queryClient.invalidateQueries({ queryKey: ['ej-records'] });
      notify.success('Owner and follow-up saved.');
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
    ['Status', <StatusChip key="status" clock={d} />],
    ['Stage', `${stageLabels[d.stage]}${d.cost_bearer ? ` (cost borne by the ${d.cost_bearer})` : ''}`],
    ['Network', d.network || 'Not known'],
    ['Set by', d.status_source === 'operator' ? d.status_by : 'the mail'],
    ['Owner', d.owner ?? 'Nobody yet'],
    ['Follow up on', d.follow_up_on ? formatShortDate(d.follow_up_on) : '—'],
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
        <TrailBar trail={trail} onStep={(by) => void step(by)} busy={stepping} />
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
              key={`${id}-${String(d.status_at)}`}
              initial={d.status}
              submitLabel="Save status"
              busy={save.isPending || stepping}
              error={save.error}
              andNext={trail.hasNext}
              onSubmit={(change, then) => save.mutate({ change, then })}
            />
          </Panel>
          <Panel title="Stage and network">
            <StageForm
              key={`${id}-${d.stage}-${d.network}-${String(d.status_at)}`}
              story={d}
              busy={stage.isPending || network.isPending}
              error={stage.error ?? network.error}
              onStage={(change) => stage.mutate(change)}
              onNetwork={(value) => network.mutate(value)}
            />
          </Panel>
          <Panel title="Owner and follow-up">
            <FollowUpForm
              key={`${id}-${d.owner_id}-${d.follow_up_on}`}
              initial={{ ownerId: d.owner_id, followUpOn: d.follow_up_on }}
              submitLabel="Save owner and follow-up"
              busy={follow.isPending}
              error={follow.error}
              onSubmit={(change) => follow.mutate(change)}
            />
          </Panel>
        </div>
        <ClocksPanel story={d} />
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
                    <strong>{event.stage ? `Stage: ${stageLabels[event.stage]}` : statusText(event)}</strong> by{' '}
                    {event.source === 'operator' ? event.actor : 'the mail'}
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
