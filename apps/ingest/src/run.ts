// A run of the ingester: store what the source has that is new, and meanwhile process the queue
// with a few concurrent lanes (one on the embedded database, whose connection is single).
import { reportMailbox, storeMessage, type Db, type IngestRules, type MailboxState, type NewMessage } from '@ejdesk/db';
import { stat } from 'node:fs/promises';
import { MailboxSignIn, mailboxName, reasonOf, type ImapFlow, type ImapSettings } from '@ejdesk/mailbox';
import type { Logger } from './log.ts';
import { toNewMessage } from './message.ts';
import { defaultBudget, type MemoryBudget } from './memory.ts';
import { processNext } from './process.ts';
import { contentsOf, messagesIn, type PathContents } from './sources/files.ts';
import { isDeadlock, receiveFolderJournals } from './journals.ts';
import { syncMailbox } from './sources/imap.ts';
import { Summary } from './summary.ts';

const STORE_BATCH_MESSAGES = 100;
const STORE_BATCH_BYTES = 16 * 1024 * 1024;
/** A batch that loses a deadlock is stored again, up to this many times in all. */
const STORE_ATTEMPTS = 3;

export interface RunOptions {
  db: Db;
  /** Rules and passwords, loaded again whenever a sync finds new mail (they are data and may change). */
  loadRules: () => Promise<IngestRules>;
  log: Logger;
  /** Concurrent processing lanes in this process. */
  lanes: number;
  /** Keep a refresh token the provider rotated (the old one stops working: see the Mailboxes screen). */
  onRefreshTokenRotated?: ((refreshToken: string) => Promise<void>) | undefined;
  /** Raw bytes in flight, shared by fetching and the lanes (one per run when not given). */
  budget?: MemoryBudget | undefined;
  signal?: AbortSignal | undefined;
}

/** A run's options with its one budget, shared by the fetching side and every lane. */
type Run<T extends RunOptions = RunOptions> = T & { budget: MemoryBudget };
const withBudget = <T extends RunOptions>(given: T): Run<T> => ({ ...given, budget: given.budget ?? defaultBudget() });

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });

/**
 * Process the queue until it is empty and `fetching` has settled. A lane that finds nothing free
 * waits while the fetch goes on (or another lane holds the head of a subject).
 */
async function processQueue(options: Run, summary: Summary, fetching: Promise<unknown>): Promise<void> {
  let fetched = false;
  void fetching.finally(() => (fetched = true)).catch(() => undefined);
  const rules = await options.loadRules();
  const lane = async () => {
    while (!options.signal?.aborted) {
      // Read before looking at the queue: a lane may stop only when a look that began after the
      // fetch had settled found nothing (a look begun earlier may miss the last batch's commit).
      const settled = fetched;
      const outcome = await processNext(options.db, rules, options.budget);
      if (outcome) {
        summary.record(outcome);
        continue;
      }
      if (settled) return;
      await sleep(50, options.signal);
    }
  };
  await Promise.all(Array.from({ length: options.lanes }, lane));
}

/**
 * Store the messages of a folder's .eml and mbox files (or of one mbox file), processing them as
 * they are stored; then receive the journals beside them (journal files and ZIPs of them).
 */
export async function ingestFromPath(path: string, given: RunOptions): Promise<Summary> {
  const options = withBudget(given);
  const summary = new Summary();
  // A run is a source of its own in Mail Flow: its last run, what it brought, its failures.
  const source = `${(await stat(path).catch(() => null))?.isDirectory() ? 'file' : 'mbox'}:${path}`;
  const record = (state: MailboxState, report: { error?: string | null; synced?: boolean } = {}) =>
    reportMailbox(options.db, source, { state, ...report }).catch((err: unknown) =>
      options.log.warn(`${source}: its run could not be recorded (${reasonOf(err)})`),
    );
  await record('importing');
  // Stored in batches (one transaction each), so processing can start on the first batch; a big
  // batch waits for room in the budget, so storing it never overlaps processing a big message.
  // Two writers storing messages whose subjects share words in opposite orders (this run and a
  // mailbox, or two runs) may deadlock on the words' counts: PostgreSQL ends one, and its batch is
  // stored again (each message once: a stored message_id is passed over).
  const storeBatch = async (batch: NewMessage[], bytes: number) => {
    for (let attempt = 1; ; attempt++) {
      let held = false;
      let stored = 0;
      try {
        await options.db.transaction(async (tx) => {
          await options.budget.acquire(bytes); // inside the transaction: see syncMailbox
          held = true;
          for (const message of batch) if (await storeMessage(tx, message)) stored++;
        });
        summary.stored += stored;
        summary.alreadyStored += batch.length - stored;
        return;
      } catch (err) {
        if (!isDeadlock(err) || attempt === STORE_ATTEMPTS) throw err;
        options.log.warn(`${source}: a batch of ${batch.length} messages lost a deadlock and is stored again`);
      } finally {
        if (held) options.budget.release(bytes);
      }
    }
  };
  let contents: PathContents | undefined;
  const storing = (async () => {
    let batch: NewMessage[] = [];
    let bytes = 0;
    contents = await contentsOf(path);
    for await (const raw of messagesIn(contents)) {
      if (options.signal?.aborted) break;
      summary.seen++;
      batch.push(await toNewMessage(raw));
      bytes += raw.raw.length;
      if (batch.length >= STORE_BATCH_MESSAGES || bytes >= STORE_BATCH_BYTES) {
        await storeBatch(batch, bytes);
        batch = [];
        bytes = 0;
      }
    }
    if (batch.length) await storeBatch(batch, bytes);
  })();
  const processing = processQueue(options, summary, storing);
  try {
    await storing;
  } catch (err) {
    summary.hardFailures.push(`reading ${path}: ${reasonOf(err)}`);
  }
  await processing;
  if (contents && !options.signal?.aborted) {
    // After the mail: either order finds the same verdicts (a journal matches the disputes already
    // stored, a complaint the journals already received).
    const journals = await receiveFolderJournals(options.db, contents, options.signal);
    summary.journals.received += journals.received;
    summary.journals.created += journals.created;
    summary.notJournals.push(...journals.notJournals);
    summary.journalFailures.push(...journals.failures);
  }
  await record('imported', { synced: true, error: summary.hardFailures.join('; ') || null });
  return summary;
}

/** Process what is already queued (after --reprocess, or messages a crashed run left). */
export async function processStored(options: RunOptions): Promise<Summary> {
  const summary = new Summary();
  await processQueue(withBudget(options), summary, Promise.resolve());
  return summary;
}

/** Sync until the mailbox has nothing new; while another worker fetches, help process. */
async function syncUntilDone(client: ImapFlow, settings: ImapSettings, options: Run, summary: Summary): Promise<void> {
  while (!options.signal?.aborted) {
    if ((await syncMailbox(client, options.db, settings, summary, options.budget)) === 'done') return;
    await sleep(200, options.signal);
  }
}

/**
 * What this ingester says of its mailbox on the Mail flow screen. A report that cannot be written
 * (the database is away) is logged and dropped: it must never stop the ingester.
 */
const reporter =
  (settings: ImapSettings, options: RunOptions) =>
  (state: MailboxState, report: { error?: string; synced?: boolean } = {}) =>
    reportMailbox(options.db, mailboxName(settings), { state, ...report }).catch((err: unknown) =>
      options.log.warn(`${mailboxName(settings)}: its state could not be recorded (${reasonOf(err)})`),
    );

/** One sync of an IMAP mailbox, processing as messages arrive; then exit. */
export async function ingestFromImap(settings: ImapSettings, given: RunOptions): Promise<Summary> {
  const options = withBudget(given);
  const report = reporter(settings, options);
  const summary = new Summary();
  let client: ImapFlow;
  try {
    const signIn = new MailboxSignIn(settings, {
      onError: (err) => options.log.warn(`${mailboxName(settings)}: ${reasonOf(err)}`),
      onRefreshTokenRotated: options.onRefreshTokenRotated,
    });
    ({ client } = await signIn.connect());
  } catch (err) {
    summary.hardFailures.push(`connecting to ${mailboxName(settings)}: ${reasonOf(err)}`);
    await report('disconnected', { error: reasonOf(err) });
    return summary;
  }
  const syncing = syncUntilDone(client, settings, options, summary);
  const processing = processQueue(options, summary, syncing);
  try {
    await syncing;
    await report('stopped', { synced: true });
  } catch (err) {
    summary.hardFailures.push(`syncing ${mailboxName(settings)}: ${reasonOf(err)}`);
    await report('disconnected', { error: reasonOf(err) });
  }
  await processing;
  await client.logout().catch(() => client.close());
  return summary;
}

export interface WatchOptions extends RunOptions {
  /** Called after each sync-and-process round (the CLI logs it; tests wait on it). */
  onRound?: (summary: Summary) => void;
  /** Sync at least this often even without word from the server (IDLE). */
  pollMs?: number;
}

/**
 * Keep the mailbox in sync until the signal aborts: sync, process, then wait for the server to
 * report new mail (IDLE, which imapflow starts when the connection is quiet) or the poll interval.
 * A lost connection (or a refused sign-in) is re-opened with exponential backoff (1 s to 60 s);
 * a session whose OAuth2 token is due for renewal is ended and signed in again at once, and the
 * checkpoint makes the new session start where the old one stopped.
 */
export async function watchImap(settings: ImapSettings, given: WatchOptions): Promise<void> {
  const options = withBudget(given);
  const { log, signal } = options;
  const report = reporter(settings, options);
  const signIn = new MailboxSignIn(settings, {
    onError: (err) => log.warn(`${mailboxName(settings)}: ${reasonOf(err)}`),
    onRefreshTokenRotated: options.onRefreshTokenRotated,
  });
  let backoff = 1000;
  let renewing = false;
  while (!signal?.aborted) {
    if (!renewing) await report('connecting');
    renewing = false;
    let client: ImapFlow | undefined;
    let renewal: NodeJS.Timeout | undefined;
    // Word from the server may come while a round runs (mail appended during a sync): it is kept,
    // and the next wait returns at once instead of sleeping until the poll interval.
    let news = false;
    let wake: () => void = () => undefined;
    const waitForMail = (ms: number) =>
      new Promise<void>((resolve) => {
        const finish = () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', finish);
          wake = () => undefined;
          resolve();
        };
        const timer = setTimeout(finish, news || signal?.aborted ? 0 : ms); // an abort during the round counts too
        wake = finish;
        signal?.addEventListener('abort', finish, { once: true });
      });
    const heard = () => {
      news = true;
      wake();
    };
    try {
      const connection = await signIn.connect();
      client = connection.client;
      client.on('exists', heard);
      client.on('close', heard);
      if (connection.renewAt !== null) {
        const session = client;
        renewal = setTimeout(() => ((renewing = true), session.close()), Math.max(0, connection.renewAt - Date.now()));
      }
      await client.mailboxOpen(settings.mailbox);
      log.info(`watching ${mailboxName(settings)}`);
      await report('connected');
      backoff = 1000;
      while (!signal?.aborted && client.usable) {
        news = false;
        const summary = new Summary();
        const syncing = syncUntilDone(client, settings, options, summary);
        await Promise.all([syncing, processQueue(options, summary, syncing)]);
        await report('connected', { synced: true });
        options.onRound?.(summary);
        if (summary.seen) log.info(summary.toText());
        await waitForMail(options.pollMs ?? 5 * 60_000);
      }
      if (renewing) log.info(`${mailboxName(settings)}: its access token is due for renewal; signing in again`);
      else if (!signal?.aborted) await report('disconnected', { error: 'the server closed the connection' });
    } catch (err) {
      renewing = false;
      log.warn(`${mailboxName(settings)}: ${reasonOf(err)}; reconnecting in ${backoff / 1000} s`);
      await report('disconnected', { error: reasonOf(err) });
    } finally {
      clearTimeout(renewal);
      client?.close();
    }
    if (signal?.aborted) break;
    if (renewing) continue;
    await sleep(backoff, signal);
    backoff = Math.min(backoff * 2, 60_000);
  }
  await report('stopped');
}
