// Every mailbox at once: the bootstrap one in IMAP_* and each enabled one on the Mailboxes screen,
// each with its own watcher (its own connection, token, backoff and state in Mail Flow), so one
// failing never slows another. The list is read again every few seconds: a mailbox added, changed,
// disabled or deleted takes effect without a restart. However many workers run on the database,
// each mailbox is watched by one: its watcher runs only while this worker holds the mailbox's
// lease, renewed at every reading of the list; a dead worker's leases lapse and another takes them.
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { forgetMailbox, keepRefreshToken, leaseMailboxes, mailboxesToSignIn, releaseMailboxes } from '@ejdesk/db';
import { mailboxName, reasonOf, settingsOfStored, type ImapSettings } from '@ejdesk/mailbox';
import { watchImap, type WatchOptions } from './run.ts';

interface Wanted {
  key: string;
  /** A change to it (its update time) restarts its watcher. */
  version: string;
  settings: ImapSettings;
  keep?: (refreshToken: string) => Promise<void>;
}

interface MailboxesOptions extends WatchOptions {
  bankPassKey: Buffer;
  /** The mailbox in IMAP_*, watched beside the list's. */
  bootstrap: ImapSettings | null;
  /** How often the list is read again and the leases renewed (5 s, or a quarter of a shorter lease, unless given). */
  recheckMs?: number;
  /** How long a lease lasts unrenewed (20 s unless given): another worker takes a mailbox over after it. */
  leaseSeconds?: number;
  /** This worker's name in the leases (`host:pid:random` unless given). */
  workerId?: string;
  /** The only process that can open this database (the embedded one): leases left there are stale. */
  soleWorker?: boolean | undefined;
}

/** A name for this worker that no other process shares. */
const newWorkerId = () => `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;

export async function watchMailboxes(options: MailboxesOptions): Promise<void> {
  const { db, log, signal } = options;
  const worker = options.workerId ?? newWorkerId();
  const leaseMs = (options.leaseSeconds ?? 20) * 1000;
  // Four renewals per lease: one late round never lets it lapse under a live worker.
  const recheckMs = options.recheckMs ?? Math.min(5000, leaseMs / 4);
  const running = new Map<string, { version: string; source: string; controller: AbortController; done: Promise<void> }>();
  /** Until when each held lease is surely ours (by this process's clock, with a margin). */
  const heldUntil = new Map<string, number>();
  if (options.soleWorker) await releaseMailboxes(db, null);
  const wanted = async (): Promise<Wanted[]> => {
    const listed = (await mailboxesToSignIn(db, options.bankPassKey, 'enabled')).map((m): Wanted => ({
      key: `mailbox:${m.id}`,
      version: new Date(m.update_at).toISOString(),
      settings: settingsOfStored(m),
      keep: (token) => keepRefreshToken(db, options.bankPassKey, m.id, token),
    }));
    return options.bootstrap ? [{ key: 'bootstrap', version: '', settings: options.bootstrap, keep: options.onRefreshTokenRotated }, ...listed] : listed;
  };
  const stop = async (key: string, forget: boolean) => {
    const watcher = running.get(key)!;
    running.delete(key);
    watcher.controller.abort();
    await watcher.done;
    if (forget)
      await forgetMailbox(db, watcher.source).catch((err: unknown) => log.warn(`${watcher.source}: could not be taken off Mail Flow (${reasonOf(err)})`));
  };
  while (!signal?.aborted) {
    try {
      // One watcher per mailbox, even when the list and IMAP_* name the same one.
      const list = (await wanted()).filter((w, i, all) => all.findIndex((o) => mailboxName(o.settings) === mailboxName(w.settings)) === i);
      const byKey = new Map(list.map((w) => [w.key, w]));
      const asked = Date.now();
      try {
        const held = await leaseMailboxes(
          db,
          worker,
          list.map((w) => mailboxName(w.settings)),
          leaseMs / 1000,
        );
        for (const source of held) {
          if (!heldUntil.has(source)) log.info(`${source}: watched by this worker (${worker})`);
          // Surely ours until one round (and a margin) before it would lapse: a worker cut off from
          // the database stops its watchers before another worker can take them over.
          heldUntil.set(source, asked + leaseMs - recheckMs - 2000);
        }
        for (const source of [...heldUntil.keys()]) if (!held.has(source)) heldUntil.delete(source);
      } catch (err) {
        // The database is away: a lease is kept only as long as it surely lasts.
        log.warn(`the mailbox leases could not be renewed (${reasonOf(err)}); trying again`);
        for (const [source, until] of heldUntil) if (until < Date.now()) heldUntil.delete(source);
      }
      for (const [key, watcher] of [...running]) {
        const now = byKey.get(key);
        if (now && now.version === watcher.version && heldUntil.has(watcher.source)) continue;
        const why = !now
          ? 'no longer on the list; stopped'
          : !heldUntil.has(watcher.source)
            ? 'watched by another worker now; stopped here'
            : 'changed; watching it again';
        log.info(`${watcher.source}: ${why}`);
        await stop(key, !now || mailboxName(now.settings) !== watcher.source);
      }
      // Leases of mailboxes no longer wanted go back (a deleted one's row is gone with it).
      await releaseMailboxes(
        db,
        worker,
        [...heldUntil.keys()].filter((source) => !list.some((w) => mailboxName(w.settings) === source)),
      );
      for (const w of list) {
        if (running.has(w.key) || !heldUntil.has(mailboxName(w.settings))) continue;
        const controller = new AbortController();
        const done = watchImap(w.settings, { ...options, signal: controller.signal, onRefreshTokenRotated: w.keep }).catch((err: unknown) =>
          log.error(`${mailboxName(w.settings)}: the watcher stopped (${reasonOf(err)})`),
        );
        running.set(w.key, { version: w.version, source: mailboxName(w.settings), controller, done });
      }
    } catch (err) {
      log.warn(`the Mailboxes list could not be read (${reasonOf(err)}); trying again`);
    }
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, recheckMs);
      signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
    });
  }
  await Promise.all([...running.keys()].map((key) => stop(key, false)));
  // Stopping on purpose: the next worker need not wait for the leases to lapse.
  await releaseMailboxes(db, worker).catch((err: unknown) =>
    log.warn(`the mailbox leases could not be given back (${reasonOf(err)}); they lapse by themselves`),
  );
}
