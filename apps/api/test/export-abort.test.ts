// Exports whose client leaves: ten XLSX downloads dropped after half a second must stop at once,
// giving back their connections and memory, and leave the API answering lists promptly.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, queryRows } from '@ejdesk/db';
import { sql } from 'drizzle-orm';
import { testDatabaseUrl } from './helpers.ts';
import { loginOver, startApiProcess, startSeededApiProcess, type ApiProcess } from './support/api-process.ts';

const operator = { email: 'ops@bank.example', password: 'a long enough password' };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One figure from the Prometheus text of /api/metrics. */
async function metric(api: ApiProcess, name: string): Promise<number> {
  const text = await (await fetch(`${api.base}/api/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `) || l.startsWith(`${name}{`));
  return Number(line?.split(' ').pop());
}

describe.runIf(testDatabaseUrl)('aborted exports (PostgreSQL)', () => {
  let api: ApiProcess;
  let token: string;
  let disputes: number;
  let url: string;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ api, token, disputes, url, drop } = await startSeededApiProcess(60_000, operator, { EXPORT_CONCURRENCY: '10', SHUTDOWN_SECONDS: '5' }));
  }, 180_000);
  afterAll(async () => {
    // The dropped downloads' sockets stay open at the client's end: the drain cuts them at its bound.
    await api?.stop();
    await drop?.();
  });

  const exportUrl = () => `${api.base}/api/scrape/extract/export/?format=xlsx`;
  const activeQueries = async () => {
    const database = await openDatabase({ url: url, poolSize: 1 });
    const [row] = await queryRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and state = 'active' and pid <> pg_backend_pid()`,
    );
    await database.close();
    return row!.n;
  };

  it('stops ten dropped XLSX exports: no queries left, memory back near its start, lists answered at once', async () => {
    // Warm up (exceljs loaded, pool open), then take the baseline.
    const warm = await fetch(exportUrl(), { headers: { authorization: `JWT ${token}` } });
    expect(warm.status).toBe(200);
    await warm.arrayBuffer();
    const baseline = await metric(api, 'process_resident_memory_bytes');

    const controllers = Array.from({ length: 10 }, () => new AbortController());
    const downloads = controllers.map(async (controller) => {
      const response = await fetch(exportUrl(), { headers: { authorization: `JWT ${token}` }, signal: controller.signal });
      expect(response.status).toBe(200);
      // Read a little, as a browser tab does before it is closed.
      const reader = response.body!.getReader();
      await reader.read().catch(() => undefined);
      return reader;
    });
    await sleep(500);
    for (const controller of controllers) controller.abort();
    await Promise.allSettled(downloads);

    // The slots are given back as soon as the connections close.
    // The polls' bounds are how long to wait on a machine busy with other suites, not a speed claim.
    await expect.poll(() => metric(api, 'ejdesk_exports_in_flight'), { timeout: 30_000 }).toBe(0);
    const started = Date.now();
    const list = await fetch(`${api.base}/api/scrape/extract/email/data/pagination/?page=2`, { headers: { authorization: `JWT ${token}` } });
    const listMs = Date.now() - started;
    expect(list.status).toBe(200);
    expect(((await list.json()) as { count: number }).count).toBe(disputes);
    // Not queued behind the dropped exports' queries (an export that runs on holds its connection).
    expect(listMs).toBeLessThan(5_000);
    // No export query keeps running on the server.
    await expect.poll(activeQueries, { timeout: 30_000 }).toBe(0);
    // Memory settles near where it started (it grew by ~850 MB when dropped exports ran on).
    await expect.poll(() => metric(api, 'process_resident_memory_bytes'), { timeout: 60_000, interval: 500 }).toBeLessThan(baseline + 150 * 1024 * 1024);
  }, 120_000);

  it('refuses an export past the limit with 429 and a detail, before any byte of a file', async () => {
    const limited = await startApiProcess({ DATABASE_URL: url, EXPORT_CONCURRENCY: '1' });
    try {
      await limited.waitFor('/api/ready', 200);
      const access = await loginOver(limited.base, operator.email, operator.password);
      const headers = { authorization: `JWT ${access}` };
      const first = await fetch(`${limited.base}/api/scrape/extract/export/?format=csv`, { headers });
      expect(first.status).toBe(200);
      const second = await fetch(`${limited.base}/api/scrape/extract/export/?format=csv`, { headers });
      expect(second.status).toBe(429);
      expect(await second.json()).toEqual({ detail: 'Too many exports are running; try again in a moment.' });
      await first.arrayBuffer();
      // Once the first has finished, the slot is free again.
      const third = await fetch(`${limited.base}/api/scrape/extract/export/?format=csv`, { headers });
      expect(third.status).toBe(200);
      // Every record, the header and the BOM, nothing cut off.
      expect((await third.text()).split('\r\n').length).toBe(disputes + 2);
    } finally {
      await limited.stop();
    }
  }, 300_000);
});
