import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveRemote, serveShell } from './serve.ts';

describe('the shell server', () => {
  const api = Fastify();
  let shell: Awaited<ReturnType<typeof serveShell>>;
  let base: string;

  beforeAll(async () => {
    api.all('/api/*', async (request) => ({
      forwardedFor: request.headers['x-forwarded-for'],
      proxy: request.headers['x-ejdesk-proxy'],
      url: request.url,
    }));
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
      proxySecret: 'proxy-secret',
    });
    base = `http://127.0.0.1:${port}`;
  });
  afterAll(async () => {
    await shell.close();
    await api.close();
  });

  it('forwards /api with the real client address, replacing a spoofed one', async () => {
    const response = await fetch(`${base}/api/scrape/bank/msp/list/?page=2`, { headers: { 'x-forwarded-for': '6.6.6.6' } });
    expect(await response.json()).toEqual({ forwardedFor: '127.0.0.1', proxy: 'proxy-secret', url: '/api/scrape/bank/msp/list/?page=2' });
  });

  it('refuses a body over the API limit itself (413 with a detail), and never forwards /api/metrics', async () => {
    const big = await fetch(`${base}/api/auth/jwt/create/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'x', password: 'y'.repeat(5 * 1024 * 1024) }),
    });
    expect(big.status).toBe(413);
    expect((await big.json()).detail).toMatch(/larger than 64 KB/);
    const metrics = await fetch(`${base}/api/metrics`);
    expect(metrics.status).toBe(404);
    expect(await metrics.json()).toEqual({ detail: 'Not found.' });
    expect(metrics.headers.get('permissions-policy')).toContain('camera=()');
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

  it('answers 503 with a detail while the API is down', async () => {
    const root = mkdtempSync(join(tmpdir(), 'shell-'));
    writeFileSync(join(root, 'index.html'), '<!doctype html>');
    const port = 3980 + Math.floor(Math.random() * 9);
    const shellWithoutApi = await serveShell({ root, port, host: '127.0.0.1', apiUrl: 'http://127.0.0.1:1', remotes: {} });
    try {
      const response = await fetch(`http://127.0.0.1:${port}/api/health`);
      expect(response.status).toBe(503);
      expect(await response.json()).toEqual({ detail: 'The API is unavailable; try again.' });
    } finally {
      await shellWithoutApi.close();
    }
  });
});

describe('a remote server', () => {
  it('serves its page with a CSP, and keeps mf-stats.json private', async () => {
    const root = mkdtempSync(join(tmpdir(), 'remote-'));
    writeFileSync(join(root, 'mf-manifest.json'), '{}');
    writeFileSync(join(root, 'mf-stats.json'), '{"modules": []}');
    writeFileSync(join(root, 'index.html'), '<!doctype html><div id="root"></div>');
    const port = 3800 + Math.floor(Math.random() * 90);
    const remote = await serveRemote(root, port, '127.0.0.1');
    try {
      const page = await fetch(`http://127.0.0.1:${port}/`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(page.headers.get('permissions-policy')).toContain('geolocation=()');
      expect((await fetch(`http://127.0.0.1:${port}/mf-manifest.json`)).status).toBe(200);
      expect((await fetch(`http://127.0.0.1:${port}/mf-stats.json`)).status).toBe(404);
    } finally {
      await remote.close();
    }
  });
});
