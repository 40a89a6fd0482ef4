// Live events: one LISTEN per API instance on the ingester's channel (and one on the remote
// registry's, whose changes open pages hear of as `release`), fanned out to
// every open event stream, so the dashboard counts, the category lists' Total Records and the Mail
// Flow refresh within a few seconds of new mail, in every tab, with no polling per tab. Bursts
// (a sync of a hundred messages) become one event per second at most. While anyone listens, the
// stall is checked here every few seconds (one query per instance, not per tab) and sent when it
// changes. A user holds at most a few streams on an instance (EVENT_STREAMS_PER_USER): a stolen
// token or a runaway script cannot pile up connections, and opening one more ends the oldest.
import { mailChannel, mailStall, releaseChannel, type Database, type Stall } from '@ejdesk/db';

export interface LiveEvent {
  type: 'mail' | 'stall' | 'release';
  data: unknown;
}
type Subscriber = (event: LiveEvent) => void;
/** Why the hub ends a stream: the API shuts down, or its user opened more than they may hold. */
export type EndReason = 'closing' | 'too many streams';

export interface LiveHub {
  /**
   * `end` is called when the hub ends the stream (the API shuts down, or `owner.user` opened more
   * than `owner.limit` streams and this is their oldest): the stream must end then.
   */
  subscribe(subscriber: Subscriber, end: (reason: EndReason) => void, owner?: { user: number; limit: number }): () => void;
  /** The stall as last checked (checked now when nobody listened before). */
  currentStall(): Promise<Stall>;
  /**
   * Settles once the instance listens (or has tried to: a failed LISTEN is retried in the
   * background), so a stream opened now hears every notification after it.
   */
  listening(): Promise<void>;
  subscribers(): number;
  close(): Promise<void>;
}

export function createLiveHub(database: Database, options: { stallAfterSeconds: number; coalesceMs?: number; log?: (message: string) => void }): LiveHub {
  // In the order the streams were opened, so a user's first is their oldest.
  const subscribers = new Map<Subscriber, { end: (reason: EndReason) => void; user: number | undefined }>();
  const coalesceMs = options.coalesceMs ?? 1000;
  let pending: ReturnType<typeof setTimeout> | undefined;
  let lastStall: Stall | undefined;
  let stallTimer: ReturnType<typeof setInterval> | undefined;
  let unlisten: Promise<() => Promise<void>> | undefined;
  let unlistenReleases: Promise<() => Promise<void>> | undefined;
  let closed = false;

  const send = (event: LiveEvent) => {
    for (const subscriber of subscribers.keys()) subscriber(event);
  };
  const checkStall = async (): Promise<Stall> => {
    const stall = await mailStall(database.db, options.stallAfterSeconds);
    const changed = !lastStall || JSON.stringify(stall) !== JSON.stringify(lastStall);
    lastStall = stall;
    if (changed) send({ type: 'stall', data: stall });
    return stall;
  };
  const safeCheck = () => void checkStall().catch((err: unknown) => options.log?.(`stall check failed: ${(err as Error).message}`));
  const mailArrived = () => {
    if (pending || closed) return;
    pending = setTimeout(() => {
      pending = undefined;
      send({ type: 'mail', data: { at: new Date().toISOString() } });
      safeCheck();
    }, coalesceMs);
  };

  const start = () => {
    unlisten = database.listen(mailChannel, mailArrived, (err) => options.log?.(`live events: ${err.message}; listening again`));
    unlisten.catch((err: unknown) => options.log?.(`live events could not listen: ${(err as Error).message}`));
    // A remote's releases changed: each open page asks for its own release again (a canary's share is per operator).
    unlistenReleases = database.listen(
      releaseChannel,
      // null: the connection was made again (a release missed meanwhile is heard at the next load).
      (name) => name && send({ type: 'release', data: { remote: name } }),
      (err) => options.log?.(`release events: ${err.message}; listening again`),
    );
    unlistenReleases.catch((err: unknown) => options.log?.(`release events could not listen: ${(err as Error).message}`));
    const every = Math.min(15, Math.max(1, Math.floor(options.stallAfterSeconds / 4))) * 1000;
    stallTimer = setInterval(safeCheck, every);
  };
  const stop = async () => {
    clearInterval(stallTimer);
    clearTimeout(pending);
    pending = undefined;
    const listening = [unlisten, unlistenReleases];
    unlisten = undefined;
    unlistenReleases = undefined;
    lastStall = undefined;
    for (const one of listening) await (await one?.catch(() => undefined))?.();
  };

  return {
    subscribe(subscriber, end, owner) {
      if (closed) {
        end('closing');
        return () => undefined;
      }
      if (subscribers.size === 0) start();
      subscribers.set(subscriber, { end, user: owner?.user });
      if (owner) {
        const theirs = [...subscribers].filter(([, s]) => s.user === owner.user);
        for (const [oldest, { end: endOldest }] of theirs.slice(0, Math.max(0, theirs.length - owner.limit))) {
          subscribers.delete(oldest);
          endOldest('too many streams');
        }
      }
      return () => {
        // A stream the hub ended already was taken out then; its leaving stops nothing again.
        if (subscribers.delete(subscriber) && subscribers.size === 0) void stop();
      };
    },
    async currentStall() {
      return lastStall ?? checkStall();
    },
    async listening() {
      await Promise.allSettled([unlisten, unlistenReleases]);
    },
    subscribers: () => subscribers.size,
    async close() {
      closed = true;
      const ends = [...subscribers.values()];
      subscribers.clear();
      for (const { end } of ends) end('closing');
      await stop();
    },
  };
}
