// Live events over real HTTP on both backends: the stall first, a `mail` event within
// seconds of the ingester's notification (bursts coalesced), a stall event when the mail stops
// flowing, a `release` event when a remote's releases change, a LISTEN connection killed by the
// server is made again, a user's streams past EVENT_STREAMS_PER_USER end their oldest, and
// shutdown ends the streams.
import { sql } from 'drizzle-orm';
import { deployRemote, mailChannel, releaseChannel, reportMailbox, rollbackRemote, storeMessage } from '@ejdesk/db';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { admin, backends, createTestApp, login, type TestApp } from './helpers.ts';

interface Received {
  type: string;
  data: unknown;
}

/** The streams a test opened: closed after it, so a failed test leaves none open for the next. */
const openStreams = new Set<AbortController>();
afterEach(() => {
  for (const controller of openStreams) controller.abort();
  openStreams.clear();
});

/** An event stream read with fetch as the console reads it; next(type) waits for that event. */
async function openStream(base: string, authorization: string) {
  const controller = new AbortController();
  openStreams.add(controller);
  const response = await fetch(`${base}/api/events/`, { headers: { authorization }, signal: controller.signal });
  const events: Received[] = [];
  let ended = false;
  let wake = () => undefined as void;
  const reading = (async () => {
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        let cut;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const type = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (type && data) events.push({ type, data: JSON.parse(data) });
          wake();
        }
      }
    } catch {
      // aborted
    }
    ended = true;
    wake();
  })();
  return {
    response,
    events,
    async next(type: string, timeoutMs = 10_000): Promise<Received> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const at = events.findIndex((e) => e.type === type);
        if (at >= 0) return events.splice(at, 1)[0]!;
        if (ended) throw new Error(`the stream ended before a ${type} event`);
        if (Date.now() > deadline) throw new Error(`no ${type} event within ${timeoutMs} ms: ${JSON.stringify(events)}`);
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, 100);
        });
      }
    },
    ended: () => reading.then(() => ended),
    /** Whether the server has ended the stream within `ms`. */
    endsWithin: (ms: number) => Promise.race([reading.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms))]),
    close: () => controller.abort(),
  };
}

describe.each(backends)('live events on %s', (backend) => {
  let t: TestApp;
  let base: string;
  let authorization: string;
  beforeAll(async () => {
    t = await createTestApp(backend, { stallAfterSeconds: 2 });
    base = await t.app.listen({ host: '127.0.0.1', port: 0 });
    authorization = `JWT ${(await login(t.app)).access}`;
  });
  afterAll(() => t.close());
  /** The server's connections whose last statement was a LISTEN on the channel. */
  const listeners = async (channel: string) =>
    (
      (await t.database.db.execute(
        sql`select pid from pg_stat_activity where query ilike ${`listen %${channel}%`} and datname = current_database()`,
      )) as unknown as { rows: { pid: number }[] }
    ).rows.map((row) => row.pid);
  /** Ends those connections from the server's side, as a restart or a failover does. */
  const terminate = async (pids: number[]) =>
    (
      (await t.database.db.execute(sql`select pg_terminate_backend(pid) as ended from unnest(${`{${pids.join(',')}}`}::int[]) as pid`)) as unknown as {
        rows: { ended: boolean }[];
      }
    ).rows.map((row) => row.ended);

  it('refuses a request without a valid token with a 401 detail', async () => {
    const response = await fetch(`${base}/api/events/`);
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ detail: expect.any(String) });
    const forged = await fetch(`${base}/api/events/`, { headers: { authorization: 'JWT nope' } });
    expect(forged.status).toBe(401);
  });

  it('sends the stall first, then one mail event for a burst of stored mail, and the stall when mail stops', async () => {
    const stream = await openStream(base, authorization);
    expect(stream.response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect((await stream.next('stall')).data).toEqual({ stalled: false, reasons: [], stall_after_seconds: 2 });
    // The stall frame comes once the instance listens: mail stored right after it is heard.
    if (backend === 'postgres') expect(await listeners(mailChannel)).toHaveLength(1);

    const source = 'imap://ops@mail.example:993/INBOX';
    await reportMailbox(t.database.db, source, { state: 'connected', synced: true });
    await t.database.db.transaction(async (tx) => {
      for (let i = 0; i < 5; i++) {
        const raw = Buffer.from(`Subject: live ${i}\r\n\r\nbody`);
        await storeMessage(tx as never, {
          messageId: `<live-${i}@test>`,
          emailFrom: 'a@b.example',
          emailTo: '',
          subject: `live ${i}`,
          normalizedSubject: `live ${i}`,
          receivedAt: new Date(),
          raw,
          size: raw.length,
          origin: `${source}#uid=${i + 1}`,
        });
      }
    });
    await stream.next('mail');
    // A poll that finds the mailbox as it was is no news: no event.
    await reportMailbox(t.database.db, source, { state: 'connected', synced: true });
    await new Promise((r) => setTimeout(r, 1500));
    expect(stream.events.filter((e) => e.type === 'mail')).toEqual([]);

    // Nothing syncs, and the stored mail waits unprocessed: the stall arrives unasked.
    const stall = await stream.next('stall', 15_000);
    // The waiting mail passes the threshold first (the last report synced); the missing sync may follow.
    expect(stall.data).toMatchObject({ stalled: true, reasons: expect.arrayContaining(['Mail has waited more than 2 seconds to be processed.']) });
    await t.database.db.execute(sql`update email_sources set processed_at = now()`);
    await reportMailbox(t.database.db, source, { state: 'connected', synced: true });
    expect((await stream.next('stall', 15_000)).data).toMatchObject({ stalled: false });
    // A client that leaves is let go: no stream is kept for it, and with nobody left the instance stops listening.
    stream.close();
    await expect.poll(() => t.app.ctx.live.subscribers(), { timeout: 5000 }).toBe(0);
  }, 60_000);

  it('sends a release event naming the remote when its releases change (a deploy, a canary, its rollback)', async () => {
    const stream = await openStream(base, authorization);
    await stream.next('stall');
    // On a server the hub listens on a connection of its own, made as the first stream opens.
    if (backend === 'postgres')
      await expect
        .poll(
          async () =>
            (
              (await t.database.db.execute(
                sql`select 1 from pg_stat_activity where query ilike 'listen %ejdesk_release%' and datname = current_database()`,
              )) as unknown as { rows: unknown[] }
            ).rows.length,
          { timeout: 5000 },
        )
        .toBe(1);
    const descriptor = { name: 'ej', section: 'EJ data', paths: ['ej-live'], nav: [] };
    const release = (version: string) => ({
      name: 'ej',
      version,
      manifest: `http://localhost:3002/${version}/mf-manifest.json`,
      descriptor,
      deployedBy: 'test',
    });
    await deployRemote(t.database.db, release('1.0.0'), 'test token');
    expect((await stream.next('release')).data).toEqual({ remote: 'ej' });
    await deployRemote(t.database.db, release('1.1.0'), 'test token', 30);
    expect((await stream.next('release')).data).toEqual({ remote: 'ej' });
    await rollbackRemote(t.database.db, 'ej', 'test', 'test token');
    expect((await stream.next('release')).data).toEqual({ remote: 'ej' });
    // A refused deploy (the same version again) tells no one.
    expect((await deployRemote(t.database.db, release('1.0.0'), 'test token')).ok).toBe(false);
    await new Promise((r) => setTimeout(r, 1000));
    expect(stream.events.filter((e) => e.type === 'release')).toEqual([]);
    stream.close();
  }, 30_000);

  it.runIf(backend === 'postgres')(
    'listens again after the server kills its LISTEN connection',
    async () => {
      // A stream closed by an earlier test stops its hub's LISTEN asynchronously: wait until that
      // connection is gone, so the one killed below is this stream's.
      await expect.poll(async () => (await listeners(mailChannel)).length, { timeout: 10_000 }).toBe(0);
      const stream = await openStream(base, authorization);
      await stream.next('stall');
      // The hub's LISTEN connection, once it is made (it is made when the first stream opens).
      await expect.poll(async () => (await listeners(mailChannel)).length, { timeout: 5000 }).toBe(1);
      expect(await terminate(await listeners(mailChannel))).toEqual([true]);
      // Made again within a few seconds; the events missed meanwhile become one mail event.
      await stream.next('mail', 10_000);
      await reportMailbox(t.database.db, 'imap://ops@mail.example:993/INBOX', { state: 'disconnected', error: 'ECONNRESET' });
      await stream.next('mail', 10_000);
      stream.close();
    },
    30_000,
  );

  it.runIf(backend === 'postgres')(
    'hears releases again after the server kills the release LISTEN connection',
    async () => {
      await expect.poll(async () => (await listeners(releaseChannel)).length, { timeout: 10_000 }).toBe(0);
      const stream = await openStream(base, authorization);
      await stream.next('stall');
      await expect.poll(async () => (await listeners(releaseChannel)).length, { timeout: 5000 }).toBe(1);
      const [killed] = await listeners(releaseChannel);
      expect(await terminate([killed!])).toEqual([true]);
      // Made again within a few seconds, on a new connection; the next deploy is heard on it.
      await expect.poll(async () => (await listeners(releaseChannel)).filter((pid) => pid !== killed).length, { timeout: 10_000 }).toBe(1);
      const deployed = await deployRemote(
        t.database.db,
        {
          name: 'files',
          version: '2.0.0',
          manifest: 'http://localhost:3003/2.0.0/mf-manifest.json',
          descriptor: { name: 'files', section: 'Files', paths: ['files-live'], nav: [] },
          deployedBy: 'test',
        },
        'test token',
      );
      expect(deployed.ok).toBe(true);
      expect((await stream.next('release', 10_000)).data).toEqual({ remote: 'files' });
      stream.close();
    },
    30_000,
  );

  it('keeps EVENT_STREAMS_PER_USER streams of a user: one more ends the oldest, the others and other users’ stay', async () => {
    const limit = t.config.eventStreamsPerUser;
    expect(limit).toBe(5);
    await expect.poll(() => t.app.ctx.live.subscribers(), { timeout: 5000 }).toBe(0);
    const opened = [];
    for (let i = 0; i < limit; i++) {
      const stream = await openStream(base, authorization);
      await stream.next('stall');
      opened.push(stream);
    }
    // Another user's stream is counted apart.
    const adminStream = await openStream(base, `JWT ${(await login(t.app, admin)).access}`);
    await adminStream.next('stall');
    expect(t.app.ctx.live.subscribers()).toBe(limit + 1);

    const newest = await openStream(base, authorization);
    await newest.next('stall');
    const [oldest, ...others] = opened;
    expect(await oldest!.endsWithin(5000)).toBe(true);
    // Its last frame says why, and to come back only after a while (no tab evicts another at once).
    expect((await oldest!.next('reconnect')).data).toEqual({ reason: 'too many streams' });
    expect(t.app.ctx.live.subscribers()).toBe(limit + 1);

    // The others still hear the mail.
    await reportMailbox(t.database.db, 'imap://limit@mail.example:993/INBOX', { state: 'connected', synced: true });
    for (const stream of [...others, newest, adminStream]) await stream.next('mail');
    for (const stream of [...others, newest, adminStream]) expect(await stream.endsWithin(0)).toBe(false);
    for (const stream of [...others, newest, adminStream]) stream.close();
    await expect.poll(() => t.app.ctx.live.subscribers(), { timeout: 5000 }).toBe(0);
  }, 30_000);

  it('ends open streams when the API shuts down', async () => {
    const own = await createTestApp(backend);
    const ownBase = await own.app.listen({ host: '127.0.0.1', port: 0 });
    const stream = await openStream(ownBase, `JWT ${(await login(own.app)).access}`);
    await stream.next('stall');
    const closing = own.close();
    expect(await stream.ended()).toBe(true);
    await closing;
  }, 30_000);
});
