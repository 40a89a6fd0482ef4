// An instance taken out of service behind a proxy (SIGTERM, as systemd sends it): no connection a
// client may still write to is closed under it. First it leaves the proxy's rotation while still
// listening: a request a proxy may resend (a GET) answers 503, a POST is served; then new
// connections are refused (a proxy passes the request on, never having sent it); a request on a
// kept-alive connection is still answered, told `Connection: close`; the export in flight is
// finished to its last row; the event stream ends with a reconnect hint; then it exits 0.
import { request, Agent, type IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseUrl } from './helpers.ts';
import { startSeededApiProcess, type ApiProcess } from './support/api-process.ts';

const operator = { email: 'ops@bank.example', password: 'a long enough password' };

/** GET over the given agent (its kept-alive connection); the response left unread. */
const get = (api: ApiProcess, path: string, agent: Agent | false, token?: string, headers: Record<string, string> = {}) =>
  new Promise<IncomingMessage>((resolve, reject) =>
    request(`${api.base}${path}`, { agent, headers: { ...headers, ...(token ? { authorization: `JWT ${token}` } : {}) } }, resolve)
      .on('error', reject)
      .end(),
  );
/** POST a login over the given agent. */
const logIn = (api: ApiProcess, agent: Agent) =>
  new Promise<IncomingMessage>((resolve, reject) =>
    request(`${api.base}/api/auth/jwt/create/`, { agent, method: 'POST', headers: { 'content-type': 'application/json' } }, resolve)
      .on('error', reject)
      .end(JSON.stringify(operator)),
  );
const text = async (response: IncomingMessage) => {
  let body = '';
  for await (const chunk of response) body += String(chunk);
  return body;
};

describe.runIf(testDatabaseUrl)('SIGTERM drains the instance (PostgreSQL)', () => {
  let api: ApiProcess;
  let token: string;
  let disputes: number;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ api, token, disputes, drop } = await startSeededApiProcess(30_000, operator));
  }, 180_000);
  afterAll(async () => {
    if (api?.child.exitCode === null) api.child.kill('SIGKILL');
    await drop?.();
  });

  it('keeps answering on open connections, finishes the export, ends the event stream with a hint, then exits 0', async () => {
    const keptAlive = new Agent({ keepAlive: true, maxSockets: 1 });
    const first = await get(api, '/api/scrape/ejs/total/email/', keptAlive, token);
    expect(first.statusCode).toBe(200);
    await text(first);

    // An export begun and not read on: the server cannot finish it until the client reads. Its
    // connection is kept alive (its answer began before the drain, without `Connection: close`).
    const exportAgent = new Agent({ keepAlive: true, maxSockets: 1 });
    const exporting = await get(api, '/api/scrape/extract/export/?format=csv', exportAgent, token);
    expect(exporting.statusCode).toBe(200);
    exporting.pause();
    const events = await get(api, '/api/events/', false, token);
    const eventText = text(events);

    const sentAt = Date.now();
    api.child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));

    // Still listening, leaving the rotation. A probe's readiness check answers 503, and tells no
    // proxy: the instance goes on listening.
    const probe = await get(api, '/api/ready/', false);
    expect(probe.statusCode).toBe(503);
    await text(probe);
    await new Promise((r) => setTimeout(r, 400));
    // Liveness still answers. Asked before the proxy's GET below: 0.2 s after that one's 503 the
    // listening socket closes, and a connection a loaded machine had not yet accepted by then is
    // reset in the kernel's accept queue (as the header says a restart's would be).
    expect((await get(api, '/api/health', false)).statusCode).toBe(200);
    // A GET a proxy forwards answers 503 (nginx resends it to another instance and leaves this
    // one out).
    const leaving = await get(api, '/api/scrape/ejs/total/email/', false, token, { 'x-forwarded-for': '203.0.113.9' });
    expect(leaving.statusCode).toBe(503);
    expect(leaving.headers['retry-after']).toBe('1');
    expect(JSON.parse(await text(leaving))).toEqual({ detail: 'This instance is shutting down.' });
    const told = Date.now();
    // A POST, which no proxy may resend, is served, and its connection told to close.
    const write = await logIn(api, keptAlive);
    expect(write.statusCode).toBe(200);
    expect(write.headers.connection).toBe('close');
    expect(JSON.parse(await text(write))).toHaveProperty('access');
    // 0.2 s after the 503, the listening socket is closed: a new connection is refused, and a
    // proxy gives the request to another instance, never having sent it.
    await new Promise((r) => setTimeout(r, Math.max(0, told + 400 - Date.now())));
    await expect(get(api, '/api/health', false)).rejects.toMatchObject({ code: 'ECONNREFUSED' });

    expect(await eventText).toMatch(/event: reconnect\ndata: \{\}\n\n$/);
    expect(await eventText).toMatch(/^retry: \d+$/m);

    // The export, read to its end after the signal: a header and every dispute.
    await new Promise((r) => setTimeout(r, 1000));
    expect(api.child.exitCode).toBeNull();
    const csv = await text(exporting);
    expect(csv.trimEnd().split('\n')).toHaveLength(disputes + 1);

    // The export's connection, idle since its last row: not closed before it has been idle the
    // whole wait (6 s), even once 6 s have passed since the signal. A proxy holding it may still
    // write a request to it; that request is answered, told to close.
    await new Promise((r) => setTimeout(r, Math.max(0, sentAt + 6_500 - Date.now())));
    const afterExport = await get(api, '/api/ready/', exportAgent);
    expect(afterExport.statusCode).toBe(503);
    expect(afterExport.headers.connection).toBe('close');
    await text(afterExport);

    expect(await api.exited).toBe(0);
    // Bounded: the idle wait and the export, not SHUTDOWN_SECONDS (25 s).
    expect(Date.now() - sentAt).toBeLessThan(15_000);
    keptAlive.destroy();
    exportAgent.destroy();
  }, 60_000);
});
