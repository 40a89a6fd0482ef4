// A dispute's Journal panel: what its journal says happened to the cash. The verdict (a word and a
// sign), the amounts asked for and taken, how the transaction was found, the journal (name, ATM,
// day, SHA-256), the transaction's lines numbered as in the file with those the verdict rests on
// marked in words, the three transactions before and after (behind disclosure buttons), the
// cassette counts nearest to it, a link to the whole journal at that line, the evidence pack, and
// "Apply the suggestion" (disabled, with the reason, when an operator set the status or there is
// none). Without evidence yet: a journal may be dropped or chosen here.
import { useId, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { applySuggestion, downloadEvidencePdf, failureReason, type DisputeStory, type Evidence } from '@ejdesk/api-client';
import { saveFile } from '@ejdesk/export';
import { Button, formatAmount, formatShortDate, Note, notify, Panel, TextLink } from '@ejdesk/ui';
import { JournalUploader, matchLabels, VerdictBadge, verdictText, type useJournalUploads } from '../journals/index.ts';
import { statusText } from './clock.tsx';
import styles from './disputes.module.css';

type ExcerptLine = Evidence['excerpt'][number];
type Near = Evidence['before'][number];

function LinesTable({ caption, lines }: { caption: string; lines: ExcerptLine[] }) {
  return (
    <div className={styles.excerptWrap}>
      <table className={styles.excerpt}>
        <caption className="ej-visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Line</th>
            <th scope="col">Evidence</th>
            <th scope="col">Text</th>
          </tr>
        </thead>
        <tbody>
          {lines.map((line) => (
            <tr key={`${line.journal_id}-${line.number}`} data-evidence={line.evidence || undefined}>
              <td className={styles.lineNo}>{line.number}</td>
              <td className={styles.mark}>{line.evidence ? '▶ Evidence' : ''}</td>
              <td className={styles.lineText}>{line.text}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

const nearLabel = (t: Near) =>
  [
    `#${t.seq}`,
    t.at ? t.at.slice(11, 19) : null,
    t.kind.replace(/_/g, ' '),
    t.requested_amount ? formatAmount(t.requested_amount) : null,
    t.kind === 'withdrawal' ? verdictText(t.verdict) : null,
    `lines ${t.lines.from}–${t.lines.to}`,
  ]
    .filter(Boolean)
    .join(' · ');

/** The three transactions before or after, collapsed behind a disclosure button. */
function NearTransactions({ which, transactions }: { which: 'before' | 'after'; transactions: Near[] }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  if (transactions.length === 0) return <Note>No transaction {which} it in this journal.</Note>;
  const n = transactions.length;
  return (
    <div className={styles.near}>
      <button type="button" className={styles.disclosure} aria-expanded={open} aria-controls={id} onClick={() => setOpen(!open)}>
        <span aria-hidden="true">{open ? '▾' : '▸'}</span> The {n === 1 ? 'transaction' : `${n} transactions`} {which}
      </button>
      <div id={id} hidden={!open}>
        {transactions.map((t) => (
          <section key={t.seq} aria-label={`Transaction ${t.seq}`}>
            <h4 className={styles.nearTitle}>{nearLabel(t)}</h4>
            <LinesTable caption={`Lines of transaction ${t.seq}`} lines={t.excerpt} />
          </section>
        ))}
      </div>
    </div>
  );
}

function Counters({ counters }: { counters: NonNullable<Evidence['counters']> }) {
  const count = (n: number | null) => (n === null ? '—' : n.toLocaleString('en-US'));
  return (
    <table className={styles.counters}>
      <caption>
        Cassette counts nearest to it: line {counters.line}
        {counters.at ? `, ${counters.at.replace('T', ' ')}` : ''}
      </caption>
      <thead>
        <tr>
          <th scope="col">Cassette</th>
          <th scope="col">Denomination</th>
          <th scope="col">Dispensed</th>
          <th scope="col">Rejected</th>
          <th scope="col">Remaining</th>
        </tr>
      </thead>
      <tbody>
        {counters.cassettes.map((c) => (
          <tr key={c.position}>
            <td>{c.position}</td>
            <td>{c.denomination === null ? '—' : c.denomination.toLocaleString('en-US')}</td>
            <td>{count(c.dispensed)}</td>
            <td>{count(c.rejected)}</td>
            <td>{count(c.remaining)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Why "Apply the suggestion" cannot be pressed, or null when it can. */
function notApplicable(story: DisputeStory, evidence: Evidence): string | null {
  const s = evidence.suggestion;
  if (!s)
    return evidence.verdict === 'indeterminate' ? 'No suggestion: the journal cannot say, so a person must judge.' : 'No suggestion: there is no verdict.';
  if (story.status_source === 'operator') return `No change: an operator set the status (${statusText(story)}); a suggestion never overwrites it.`;
  if (story.status === s.status && story.outcome === s.outcome) return `Already ${statusText(s)}.`;
  return null;
}

export function JournalPanel({ story, uploads }: { story: DisputeStory; uploads: ReturnType<typeof useJournalUploads> }) {
  const queryClient = useQueryClient();
  const reasonId = useId();
  const [downloading, setDownloading] = useState(false);
  const apply = useMutation({
    mutationFn: () => applySuggestion(story.id),
    onSuccess: (result) => {
      void queryClient.invalidateQueries({ queryKey: ['dispute', String(story.id)] });
      void queryClient.invalidateQueries({ queryKey: ['ej-records'] });
      if (result.updated) notify.success('The suggestion is applied.');
      else if (result.skipped_operator) notify.info('Not applied: an operator set the status.');
      else notify.info('Nothing to change.');
    },
    onError: (error) => notify.error(`The suggestion could not be applied: ${failureReason(error)}.`),
  });
  const download = async () => {
    setDownloading(true);
    try {
      const { file, fileName } = await downloadEvidencePdf(story.id);
      saveFile(fileName, file, 'application/pdf');
    } catch (error) {
      notify.error(`The evidence could not be made: ${failureReason(error)}.`);
    } finally {
      setDownloading(false);
    }
  };
  const e = story.evidence;
  if (!e || !e.journal || e.match === 'none')
    return (
      <Panel title="Journal">
        <p>
          {e?.match === 'ambiguous'
            ? `${e.candidates} transactions of the journals received fit this dispute: no verdict is guessed, a person must judge.`
            : e?.match === 'none'
              ? 'No transaction of the journals received fits this dispute yet.'
              : 'No journal has spoken of this dispute yet.'}
        </p>
        <JournalUploader uploads={uploads.uploads} onFiles={uploads.send} compact />
      </Panel>
    );
  const blocked = notApplicable(story, e);
  const own = e.excerpt.filter((line) => line.journal_id === e.journal!.id);
  const rest = e.excerpt.filter((line) => line.journal_id !== e.journal!.id);
  const suggested = e.suggestion ? statusText(e.suggestion) : null;
  return (
    <Panel
      title="Journal"
      actions={
        <Button onClick={() => void download()} loading={downloading}>
          Download evidence (PDF)
        </Button>
      }
    >
      <dl className={styles.evidenceFacts}>
        <div>
          <dt>Verdict</dt>
          <dd>
            <VerdictBadge verdict={e.verdict} /> {e.reason}
          </dd>
        </div>
        <div>
          <dt>Requested</dt>
          <dd>{e.requested_amount === null ? '—' : `${formatAmount(e.requested_amount)} ${story.currency}`}</dd>
        </div>
        <div>
          <dt>Dispensed</dt>
          <dd>{e.dispensed_amount === null ? 'Cannot be told' : `${formatAmount(e.dispensed_amount)} ${story.currency}`}</dd>
        </div>
        <div>
          <dt>Found</dt>
          <dd>
            {matchLabels[e.match]}
            {e.match === 'ambiguous' ? ` (${e.candidates} candidates)` : ''}
            {e.at ? `, at ${e.at.replace('T', ' ')}` : ''}
          </dd>
        </div>
        <div>
          <dt>Journal</dt>
          <dd>
            {e.journal.file_name} · ATM {e.journal.atm_id ?? 'not stated'} · {e.journal.day ? formatShortDate(e.journal.day) : 'day not stated'}
          </dd>
        </div>
        <div>
          <dt>SHA-256</dt>
          <dd className={styles.hash}>{e.journal.sha256}</dd>
        </div>
      </dl>
      <div className={styles.suggestion}>
        <Button variant="primary" disabled={blocked !== null || apply.isPending} aria-describedby={reasonId} onClick={() => apply.mutate()}>
          Apply the suggestion{suggested ? `: ${suggested}` : ''}
        </Button>
        <span id={reasonId} className="ej-note">
          {blocked ?? `Sets the status to ${suggested}: ${e.suggestion!.advice}`}
        </span>
      </div>
      {e.lines && (
        <>
          <h3 className={styles.subTitle}>
            The transaction's lines {e.lines.from}–{e.lines.to}
            {rest.length > 0 ? ` of ${e.journal.file_name}` : ''}
          </h3>
          <Note>Lines marked “▶ Evidence” are those the verdict rests on. Line numbers are as in the file received.</Note>
          <LinesTable caption={`Lines ${e.lines.from} to ${e.lines.to} of ${e.journal.file_name}`} lines={own} />
          {e.continuation && rest.length > 0 && (
            <>
              <h3 className={styles.subTitle}>
                Continued in {e.continuation.journal.file_name}, lines {e.continuation.lines.from}–{e.continuation.lines.to}
              </h3>
              <LinesTable caption={`Lines of ${e.continuation.journal.file_name}`} lines={rest} />
            </>
          )}
          <p>
            <TextLink to={`/journals/${e.journal.id}?line=${e.lines.from}`}>Open the whole journal at line {e.lines.from}</TextLink>
          </p>
        </>
      )}
      <NearTransactions which="before" transactions={e.before} />
      <NearTransactions which="after" transactions={e.after} />
      {e.counters ? <Counters counters={e.counters} /> : <Note>The journal prints no cassette counts near it.</Note>}
    </Panel>
  );
}
