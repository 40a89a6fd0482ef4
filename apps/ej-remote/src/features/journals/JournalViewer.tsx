// /journals/:id: one journal as received, its lines numbered as in the file. A journal has
// thousands of lines: only those in view are drawn, and they are asked for in blocks as they come
// into view. ?line=N opens at that line, highlighted (the dispute's Journal panel links here);
// Find looks through the whole journal block by block; a transaction or an anomaly chosen jumps
// to its first line.
import { useEffect, useLayoutEffect, useRef, useState, type FormEvent } from 'react';
import { useParams, useSearchParams } from 'react-router-dom';
import { useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { getJournal, getJournalLines, isNotFound, loadFailure, type JournalDetail, type JournalTransaction } from '@ejdesk/api-client';
import { Button, Card, ChoiceField, ErrorState, formatAmount, formatShortDate, LoadingState, Page, TextField, TextLink } from '@ejdesk/ui';
import { anomalyLabels, verdictText } from './words.tsx';
import styles from './journals.module.css';

/** Lines asked for at once (the API answers up to 5,000). */
const blockSize = 1000;
/** Each line's height in pixels: fixed, so a line's place is its number times it. */
const lineHeight = 20;
/** Lines drawn beyond the view each way, so a scroll does not show blanks. */
const overscan = 30;
/** Before the box has a size (a test's DOM has no layout): as many lines as a screen holds. */
const fallbackView = 600;

const blockOf = (line: number) => Math.floor((line - 1) / blockSize);

function transactionLabel(t: JournalTransaction): string {
  const time = t.at ? t.at.slice(11, 19) : 'no time';
  const amount = t.requested_amount ? ` ${formatAmount(t.requested_amount)}` : '';
  const verdict = t.kind === 'withdrawal' ? `, ${verdictText(t.verdict)}` : '';
  return `#${t.seq} ${time} ${t.kind.replace(/_/g, ' ')}${amount}${verdict} (lines ${t.lines.from}–${t.lines.to})`;
}

function Lines({ journal, target, search }: { journal: JournalDetail; target: number | null; search: string }) {
  const box = useRef<HTMLDivElement>(null);
  const [top, setTop] = useState(0);
  const [view, setView] = useState(fallbackView);
  const total = journal.line_count;
  // Opening at a line (or jumping to one): it stands a third of the way down the view.
  useLayoutEffect(() => {
    if (!target || !box.current) return;
    const height = box.current.clientHeight || fallbackView;
    const to = Math.max(0, (target - 1) * lineHeight - height / 3);
    box.current.scrollTop = to;
    setTop(to);
  }, [target]);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const measure = () => setView(element.clientHeight || fallbackView);
    measure();
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure);
    observer?.observe(element);
    return () => observer?.disconnect();
  }, []);
  const first = Math.max(1, Math.floor(top / lineHeight) + 1 - overscan);
  const last = Math.min(total, Math.ceil((top + view) / lineHeight) + overscan);
  const blocks: number[] = [];
  for (let b = blockOf(first); total > 0 && b <= blockOf(last); b++) blocks.push(b);
  const loaded = useQueries({
    queries: blocks.map((b) => ({
      queryKey: ['journal-lines', journal.id, b],
      queryFn: ({ signal }: { signal: AbortSignal }) => getJournalLines(journal.id, b * blockSize + 1, Math.min(total, (b + 1) * blockSize), signal),
      staleTime: Infinity,
    })),
  });
  const text = new Map<number, string>();
  for (const result of loaded) for (const line of result.data?.lines ?? []) text.set(line.number, line.text);
  const failed = loaded.find((result) => result.isError);
  const needle = search.toLowerCase();
  const rows = [];
  for (let n = first; n <= last; n++) {
    const line = text.get(n);
    const isTarget = n === target;
    rows.push(
      <div
        key={n}
        role="listitem"
        aria-posinset={n}
        aria-setsize={total}
        className={styles.line}
        style={{ top: (n - 1) * lineHeight, height: lineHeight }}
        data-target={isTarget || undefined}
        data-match={(needle && line?.toLowerCase().includes(needle)) || undefined}
      >
        <span className={styles.number}>{n}</span>
        {line === undefined ? <span className={styles.pending}>…</span> : line}
        {isTarget && <span className="ej-visually-hidden"> (the line asked for)</span>}
      </div>,
    );
  }
  return (
    <>
      {failed && <ErrorState message={loadFailure("journal's lines", failed.error)} onRetry={() => void failed.refetch()} />}
      {/* The box scrolls by keyboard too: it takes the focus (a scrollable region must). */}
      <div
        ref={box}
        className={styles.lines}
        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
        tabIndex={0}
        role="region"
        aria-label={`Lines of ${journal.file_name}`}
        onScroll={(event) => setTop(event.currentTarget.scrollTop)}
      >
        <div
          role="list"
          aria-label={`${total.toLocaleString('en-US')} lines, ${first} to ${last} drawn`}
          style={{ position: 'relative', height: total * lineHeight }}
        >
          {rows}
        </div>
      </div>
    </>
  );
}

/** Finds the next (or previous) line holding the text, from a line on, block by block. */
function useFind(journal: JournalDetail | undefined) {
  const queryClient = useQueryClient();
  return async (needle: string, from: number, forward: boolean): Promise<number | null> => {
    if (!journal || !needle) return null;
    const total = journal.line_count;
    const wanted = needle.toLowerCase();
    const count = blockOf(total) + 1;
    const start = blockOf(Math.max(1, Math.min(total, from)));
    const past = (n: number) => (forward ? n > from : n < from);
    // Every block once from the one holding `from`, wrapping round the end to come back to it.
    for (let step = 0; step <= count; step++) {
      const b = (((start + (forward ? step : -step)) % count) + count) % count;
      const block = await queryClient.fetchQuery({
        queryKey: ['journal-lines', journal.id, b],
        queryFn: ({ signal }) => getJournalLines(journal.id, b * blockSize + 1, Math.min(total, (b + 1) * blockSize), signal),
        staleTime: Infinity,
      });
      const lines = forward ? block.lines : [...block.lines].reverse();
      const hit = lines.find(
        (line) => (step === 0 ? past(line.number) : step === count ? !past(line.number) : true) && line.text.toLowerCase().includes(wanted),
      );
      if (hit) return hit.number;
    }
    return null;
  };
}

export function JournalViewer() {
  const { id = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const asked = Number(params.get('line'));
  const target = Number.isInteger(asked) && asked >= 1 ? asked : null;
  const journal = useQuery({ queryKey: ['journal', id], queryFn: ({ signal }) => getJournal(id, signal) });
  const [search, setSearch] = useState('');
  const [found, setFound] = useState<string | null>(null);
  const find = useFind(journal.data);
  const goTo = (line: number) => setParams({ line: String(line) }, { replace: true });

  if (journal.isPending) return <LoadingState />;
  if (journal.isError)
    return (
      <Page title="Journal">
        <ErrorState
          message={isNotFound(journal.error) ? 'No such journal.' : loadFailure('journal', journal.error)}
          onRetry={isNotFound(journal.error) ? undefined : () => void journal.refetch()}
        />
      </Page>
    );
  const j = journal.data;
  const shownTarget = target && target <= j.line_count ? target : null;
  const runFind = async (forward: boolean) => {
    const needle = search.trim();
    if (!needle) return;
    setFound('Searching…');
    const hit = await find(needle, shownTarget ?? (forward ? 0 : j.line_count + 1), forward);
    if (hit === null) setFound(`“${needle}” is not in the journal's ${j.line_count.toLocaleString('en-US')} lines.`);
    else {
      setFound(`“${needle}” found on line ${hit}.`);
      goTo(hit);
    }
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void runFind(true);
  };
  const withdrawals = j.transactions;
  return (
    <Page title={`Journal ${j.file_name}`}>
      <Card className={styles.viewer}>
        <p>
          <TextLink to="/journals">Back to the journals</TextLink>
        </p>
        <dl className={styles.facts}>
          <div>
            <dt>ATM ID</dt>
            <dd>{j.atm_id ?? 'Not stated'}</dd>
          </div>
          <div>
            <dt>Day</dt>
            <dd>{j.day ? formatShortDate(j.day) : 'Not stated'}</dd>
          </div>
          <div>
            <dt>Family</dt>
            <dd>{j.family.toUpperCase()}</dd>
          </div>
          <div>
            <dt>Lines</dt>
            <dd>{j.line_count.toLocaleString('en-US')}</dd>
          </div>
          <div>
            <dt>Transactions</dt>
            <dd>{j.transaction_count.toLocaleString('en-US')}</dd>
          </div>
          <div>
            <dt>SHA-256</dt>
            <dd className={styles.hash}>{j.sha256}</dd>
          </div>
        </dl>
        <div className={styles.toolbar}>
          <form role="search" aria-label="Find in the journal" className={styles.toolbar} onSubmit={submit}>
            <TextField label="Find" value={search} onChange={(e) => setSearch(e.target.value)} placeholder="RRN, card digits, a word…" />
            <Button type="submit">Find next</Button>
            <Button onClick={() => void runFind(false)}>Find previous</Button>
          </form>
          <ChoiceField
            label="Jump to a transaction"
            name="transaction"
            value=""
            options={[
              { value: '', label: `Choose one of ${withdrawals.length.toLocaleString('en-US')}…` },
              ...withdrawals.map((t) => ({ value: String(t.lines.from), label: transactionLabel(t) })),
            ]}
            onChange={(v) => v && goTo(Number(v))}
          />
          {j.anomalies.length > 0 && (
            <ChoiceField
              label="Jump to an anomaly"
              name="anomaly"
              value=""
              options={[
                { value: '', label: `Choose one of ${j.anomalies.length.toLocaleString('en-US')}…` },
                ...j.anomalies.map((a) => ({ value: String(a.line), label: `Line ${a.line}: ${anomalyLabels[a.kind]}` })),
              ]}
              onChange={(v) => v && goTo(Number(v))}
            />
          )}
        </div>
        <p className={styles.found} role="status">
          {found ?? (shownTarget ? `Line ${shownTarget} is highlighted.` : '')}
        </p>
        <Lines journal={j} target={shownTarget} search={search.trim()} />
      </Card>
    </Page>
  );
}
