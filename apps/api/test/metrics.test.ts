// GET /api/metrics: Prometheus text that a scraper can read, labelled by route pattern, and kept
// off the public origin.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, createTestApp, login, type TestApp } from './helpers.ts';

/** The samples of one metric: label text -> value. */
function samples(text: string, name: string): Map<string, number> {
  const found = new Map<string, number>();
  for (const line of text.split('\n')) {
    const match = new RegExp(`^${name}(\\{[^}]*\\})? (\\S+)$`).exec(line);
    if (match) found.set(match[1] ?? '', Number(match[2]));
  }
  return found;
}

describe.each(backends)('metrics on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(backend, { loginMaxFailures: 1, proxySecret: 'metrics-proxy' });
  });
  afterAll(() => t.close());

  it('counts requests by route pattern and status, throttle refusals, pool and queue figures', async () => {
    const { access } = await login(t.app);
    for (const id of [1, 2, 3]) {
      await t.app.inject({ method: 'GET', url: `/api/scrape/email/body/html/text/data/${id}/`, headers: { authorization: `JWT ${access}` } });
    }
    const wrong = { email: 'someone@example.com', password: 'wrong' };
    await t.app.inject({ method: 'POST', url: '/api/auth/jwt/create/', payload: wrong });
    const refused = await t.app.inject({ method: 'POST', url: '/api/auth/jwt/create/', payload: wrong });
    expect(refused.statusCode).toBe(429);

    const response = await t.app.inject({ method: 'GET', url: '/api/metrics' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = response.body;
    // One series for the route, whatever the ids: never a series per URL.
    const requests = samples(text, 'http_requests_total');
    expect(requests.get('{method="GET",route="/api/scrape/email/body/html/text/data/:id/",status_code="404"}')).toBe(3);
    expect([...requests.keys()].some((labels) => labels.includes('/data/1/'))).toBe(false);
    expect(
      samples(text, 'http_request_duration_seconds_count').get('{method="GET",route="/api/scrape/email/body/html/text/data/:id/",status_code="404"}'),
    ).toBe(3);
    expect(samples(text, 'ejdesk_login_throttled_total').get('{scope="account"}')).toBe(1);
    expect(samples(text, 'ejdesk_exports_in_flight').get('')).toBe(0);
    expect(samples(text, 'ejdesk_ingest_queue_depth').get('')).toBe(0);
    const pool = samples(text, 'ejdesk_db_pool_connections');
    expect([...pool.keys()].sort()).toEqual(['{state="idle"}', '{state="in_use"}', '{state="waiting"}']);
    expect(samples(text, 'process_resident_memory_bytes').get('')).toBeGreaterThan(0);
  });

  it('is not served to a request that came through the shell proxy', async () => {
    const proxied = await t.app.inject({ method: 'GET', url: '/api/metrics', headers: { 'x-ejdesk-proxy': 'metrics-proxy' } });
    expect(proxied.statusCode).toBe(404);
    expect(proxied.json()).toEqual({ detail: 'Not found.' });
  });
});

describe('metrics with METRICS_TOKEN', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('pglite', { metricsToken: 'scrape-me' });
  });
  afterAll(() => t.close());

  it('answers only with the token', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/metrics' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/metrics', headers: { authorization: 'Bearer nope' } })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/metrics', headers: { authorization: 'Bearer scrape-me' } })).statusCode).toBe(200);
  });
});
