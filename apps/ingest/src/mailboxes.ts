// Every mailbox at once: the bootstrap one in IMAP_* and each enabled one on the Mailboxes screen,
// each with its own watcher (its own connection, token, backoff and state in Mail Flow), so one
// failing never slows another. The list is read again every few seconds: a mailbox added, changed,
// disabled or deleted takes effect without a restart.
import { forgetMailbox, keepRefreshToken, mailboxesToSignIn } from '@ejdesk/db';
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
  /** How often the list is read again (5 s unless given). */
  recheckMs?: number;
}

export async function watchMailboxes(options: MailboxesOptions): Promise<void> {
  const { db, log, signal } = options;
  const running = new Map<string, { version: string; source: string; controller: AbortController; done: Promise<void> }>();
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
      const list = await wanted();
      const byKey = new Map(list.map((w) => [w.key, w]));
      for (const [key, watcher] of [...running]) {
        const now = byKey.get(key);
        if (now && now.version === watcher.version) continue;
        log.info(`${watcher.source}: ${now ? 'changed; watching it again' : 'no longer on the list; stopped'}`);
        await stop(key, !now || mailboxName(now.settings) !== watcher.source);
      }
      for (const w of list) {
        if (running.has(w.key)) continue;
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
      const timer = setTimeout(resolve, options.recheckMs ?? 5000);
      signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
    });
  }
  await Promise.all([...running.keys()].map((key) => stop(key, false)));
}
