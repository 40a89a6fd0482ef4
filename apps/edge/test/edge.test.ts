// `pnpm edge` as a process of its own, as a team places it beside `pnpm api`: the console's pages
// from the shell's build, /api forwarded with its proxy secret, the remotes from the API's
// registry; no build is refused in words; SIGTERM ends it cleanly.
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '@ejdesk/http/testing';

const cwd = new URL('..', import.meta.url).pathname;

const run = (env: Record<string, string>) =>
  spawn(process.execPath, ['--import', 'tsx', 'src/edge.ts'], { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });

describe('pnpm edge', () => {
  const api = Fastify();
  let apiUrl: string;
  beforeAll(async () => {
    api.get('/api/registry/', async () => ({ remotes: [] }));
    api.all('/api/*', async (request) => ({ url: request.url, proxy: request.headers['x-ejdesk-proxy'] }));
    await api.listen({ port: 0, host: '127.0.0.1' });
    apiUrl = `http://127.0.0.1:${(api.server.address() as { port: number }).port}`;
  });
  afterAll(() => api.close());

  it('serves the shell’s build, forwards /api with its secret, and ends on SIGTERM', async () => {
    const dist = mkdtempSync(join(tmpdir(), 'ejdesk-shell-dist-'));
    writeFileSync(join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
    const port = await freePort();
    const edge = run({ SHELL_DIST: dist, SHELL_PORT: String(port), API_URL: apiUrl, EJDESK_PROXY_SECRET: 'edge-secret' });
    const exited = new Promise<number | null>((resolve) => edge.on('exit', resolve));
    const base = `http://127.0.0.1:${port}`;
    for (let i = 0; ; i++) {
      if (
        await fetch(`${base}/login`)
          .then((r) => r.ok)
          .catch(() => false)
      )
        break;
      if (i > 150) throw new Error('the edge did not start');
      await new Promise((r) => setTimeout(r, 200));
    }
    const page = await fetch(`${base}/dashboard`);
    expect(await page.text()).toContain('<div id="root">');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(await (await fetch(`${base}/api/scrape/x/?a=1`)).json()).toEqual({ url: '/api/scrape/x/?a=1', proxy: 'edge-secret' });
    edge.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 60_000);

  it('without a build of the shell, says so and stops', async () => {
    const edge = run({ SHELL_DIST: mkdtempSync(join(tmpdir(), 'ejdesk-empty-')), SHELL_PORT: String(await freePort()), API_URL: apiUrl });
    let errors = '';
    edge.stderr!.on('data', (chunk: Buffer) => (errors += chunk));
    const code = await new Promise<number | null>((resolve) => edge.on('exit', resolve));
    expect(code).toBe(1);
    expect(errors).toMatch(/holds no build of the shell: run pnpm build \(or set SHELL_DIST\)/);
  }, 60_000);
});
