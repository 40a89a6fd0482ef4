import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveShell } from './serve.ts';

describe('the shell server', () => {
  const api = Fastify();
  let shell: Awaited<ReturnType<typeof serveShell>>;
  let base: string;

  beforeAll(async () => {
    api.all('/api/*', async (request) => ({ forwardedFor: request.headers['x-forwarded-for'], url: request.url }));
    await api.listen({ port: 0, host: '127.0.0.1' });
    const root = mkdtempSync(join(tmpdir(), 'shell-'));
    writeFileSync(join(root, 'index.html'), '<!doctype html><div id="root"></div>');
    const port = 3900 + Math.floor(Math.random() * 90);
    shell = await serveShell({
      root,
      port,
      host: '127.0.0.1',
      apiUrl: `http://127.0.0.1:${(api.server.address() as { port: number }).port}`,
      remotes: { admin: 'http://localhost:3004/mf-manifest.json' },
    });
    base = `http://127.0.0.1:${port}`;
  });
  afterAll(async () => {
    await shell.close();
    await api.close();
  });

  it('forwards /api with the real client address, replacing a spoofed one', async () => {
    const response = await fetch(`${base}/api/scrape/bank/msp/list/?page=2`, { headers: { 'x-forwarded-for': '6.6.6.6' } });
    expect(await response.json()).toEqual({ forwardedFor: '127.0.0.1', url: '/api/scrape/bank/msp/list/?page=2' });
  });

  it('serves remotes.json and the app for client-side routes, with a CSP naming the remote origins', async () => {
    expect(await (await fetch(`${base}/remotes.json`)).json()).toEqual({ admin: 'http://localhost:3004/mf-manifest.json' });
    const page = await fetch(`${base}/store-password-list`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self' http://localhost:3004");
    expect(csp).toContain("object-src 'none'");
    expect((await fetch(`${base}/static/js/missing.js`)).status).toBe(404);
  });
});
