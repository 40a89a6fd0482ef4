// The API against a PostgreSQL that fails: a private cluster of the test's own (never the shared
// server), whose connections are ended, which is stopped under load, and which is down at start.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPrivatePostgres, postgresBin, type PrivatePostgres } from './support/private-postgres.ts';
import { loginOver, startApiProcess, type ApiProcess } from './support/api-process.ts';

const operator = { email: 'ops@bank.example', password: 'a long enough password' };
const unavailable = { detail: 'The database is unavailable; try again.' };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const deployToken = 'configured-deploy-token-0123456789';

describe.runIf(postgresBin)('database faults (private PostgreSQL cluster)', () => {
  let cluster: PrivatePostgres;
  let api: ApiProcess;
  beforeAll(async () => {
    cluster = await createPrivatePostgres();
  }, 120_000);
  afterAll(async () => {
    await api?.stop();
    cluster?.destroy();
  });

  it('starts while the database is down (health 200, ready and requests 503) and serves once it is up', async () => {
    api = await startApiProcess({ DATABASE_URL: cluster.url, REMOTE_DEPLOY_TOKEN: deployToken });
    await api.waitFor('/api/health', 200);
    const ready = await fetch(`${api.base}/api/ready`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual(unavailable);
    const login = await fetch(`${api.base}/api/auth/jwt/create/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(operator),
    });
    expect(login.status).toBe(503);
    expect(login.headers.get('retry-after')).toBe('5');
    expect(await login.json()).toEqual(unavailable);

    cluster.start();
    await api.waitFor('/api/ready', 200, 30_000);
    await api.createUser(operator.email, operator.password, 'admin'); // it writes the admin lists
    expect(await loginOver(api.base, operator.email, operator.password)).toMatch(/^ey/);
  }, 120_000);

  it('keeps serving when the server ends its idle connections', async () => {
    const token = await loginOver(api.base, operator.email, operator.password);
    const list = () => fetch(`${api.base}/api/scrape/bank/msp/list/`, { headers: { authorization: `JWT ${token}` } });
    // Fill the pool with idle connections, then have the server end every one of them.
    await Promise.all(Array.from({ length: 8 }, list));
    const ended = cluster.psql(
      "select count(pg_terminate_backend(pid)) from pg_stat_activity where backend_type = 'client backend' and pid <> pg_backend_pid()",
    );
    expect(Number(ended)).toBeGreaterThan(0);
    await sleep(300);
    expect(api.child.exitCode).toBeNull();
    const statuses = await Promise.all(Array.from({ length: 20 }, async () => (await list()).status));
    expect(statuses).toEqual(Array(20).fill(200));
    expect(api.output()).toMatch(/database connection lost/);
  }, 60_000);

  it('answers 503 while the server is stopped for 10 s under load, recovers by itself, loses or invents no row, and records the configured deploy token on the next try', async () => {
    const token = await loginOver(api.base, operator.email, operator.password);
    const answers = new Map<string, number>();
    const dropped: string[] = [];
    let running = true;
    let sequence = 0;
    // Four clients creating bank MSP rows back to back, each with a name of its own.
    const client = async () => {
      while (running) {
        const msp = `MSP ${++sequence}`;
        let status = 0;
        try {
          const response = await fetch(`${api.base}/api/scrape/bank/msp/create/`, {
            method: 'POST',
            headers: { authorization: `JWT ${token}`, 'content-type': 'application/json' },
            body: JSON.stringify({ msp, bank_name: 'Fault Bank' }),
          });
          status = response.status;
          const body = (await response.json()) as { detail?: string };
          if (status === 503) expect(body).toEqual(unavailable);
        } catch (error) {
          // No answer at all (the connection dropped mid-request): the client cannot know whether
          // the row was stored, so either outcome is allowed for it; the API must still be alive.
          dropped.push(String((error as Error).cause ?? error));
        }
        answers.set(msp, status);
        await sleep(status === 201 ? 5 : 50);
      }
    };
    const load = Promise.all([client(), client(), client(), client()]);
    await sleep(1_500);
    cluster.stop();
    // The configured deploy token is recorded on its first use: with the server stopped that fails
    // (503), and is tried again by the next deploy once it is back (below).
    const rollback = () =>
      fetch(`${api.base}/api/registry/admin/rollback/`, {
        method: 'POST',
        headers: { authorization: `Bearer ${deployToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ by: 'ops' }),
      });
    const refused = await rollback();
    expect(refused.status).toBe(503);
    expect(await refused.json()).toEqual(unavailable);
    await sleep(10_000);
    cluster.start();
    // Until the API has answered 201 again for a while, by itself (the same process throughout).
    const since = answers.size;
    for (let i = 0; i < 600 && [...answers.values()].slice(since).filter((s) => s === 201).length < 50; i++) await sleep(100);
    running = false;
    await load;
    expect(api.child.exitCode, api.output()).toBeNull();
    expect(dropped.length, dropped.join('\n')).toBeLessThan(5);
    // Let through now (no 401, no 503): there is just nothing to roll back to.
    const recorded = await rollback();
    expect(recorded.status).toBe(409);
    expect(await recorded.json()).toEqual({ detail: expect.stringMatching(/admin/) });

    const statuses = [...answers.values()].filter((s) => s !== 0);
    expect(new Set(statuses), api.output()).toEqual(new Set([201, 503]));
    expect(statuses.filter((s) => s === 503).length).toBeGreaterThan(10);
    expect(statuses.slice(-20)).toEqual(Array(20).fill(201));

    const response = await fetch(`${api.base}/api/scrape/bank/msp/list/`, { headers: { authorization: `JWT ${token}` } });
    const stored = new Set(((await response.json()) as { msp: string }[]).map((row) => row.msp));
    const created = new Set([...answers].filter(([, status]) => status === 201).map(([msp]) => msp));
    const unknown = new Set([...answers].filter(([, status]) => status === 0).map(([msp]) => msp));
    // Every 201 is stored; nothing refused is; an unanswered request may have gone either way.
    expect([...created].filter((msp) => !stored.has(msp))).toEqual([]);
    expect([...stored].filter((msp) => !created.has(msp) && !unknown.has(msp))).toEqual([]);
  }, 120_000);
});
