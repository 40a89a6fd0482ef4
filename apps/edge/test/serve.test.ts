import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync } from 'node:zlib';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RegistryEntry } from '@ejdesk/contract';
import { pluginPrecompress } from '../../../rsbuild.shared.ts';
import { registryFrom, serveRemote, serveShell } from '../src/serve.ts';
import { freePort } from '@ejdesk/http/testing';

/** One GET with its raw (still encoded) bytes, as a browser receives them. */
function rawGet(url: string, acceptEncoding: string): Promise<{ headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    request(url, { headers: { 'accept-encoding': acceptEncoding } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (c: Buffer) => chunks.push(c));
      response.on('end', () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
    })
      .on('error', reject)
      .end();
  });
}

/** One request with its path sent as it is written: fetch would resolve dot segments first. */
function rawRequest(base: string, method: string, path: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    request({ host: hostname, port, method, path, headers: { 'content-type': 'application/json', authorization: 'Bearer x' } }, (response) => {
      let body = '';
      response.on('data', (c: Buffer) => (body += c.toString()));
      response.on('end', () => resolve({ status: response.statusCode!, body }));
    })
      .on('error', reject)
      .end(method === 'POST' ? '{}' : undefined);
  });
}

describe('the shell server', () => {
  const api = Fastify();
  let shell: Awaited<ReturnType<typeof serveShell>>;
  const admin: RegistryEntry = {
    name: 'admin',
    section: 'admin lists',
    role: 'admin',
    paths: ['store-password-list'],
    version: '0.1.0',
    nav: [{ label: 'Password List', path: '/store-password-list', order: 110 }],
    manifest: 'http://localhost:3004/mf-manifest.json',
  };
  let registry: RegistryEntry[] = [admin];
  let registryReads = 0;
  let base: string;

  beforeAll(async () => {
    // A journal upload's multipart body, read to its end (the stand-in keeps none of it).
    api.addContentTypeParser('multipart/form-data', (_request, payload, done) => {
      payload.resume();
      payload.on('end', () => done(null, undefined));
    });
    api.all('/api/*', async (request) => ({
      forwardedFor: request.headers['x-forwarded-for'],
      proxy: request.headers['x-ejdesk-proxy'],
      idempotencyKey: request.headers['idempotency-key'],
      url: request.url,
    }));
    await api.listen({ port: 0, host: '127.0.0.1' });
    const root = mkdtempSync(join(tmpdir(), 'shell-'));
    writeFileSync(join(root, 'index.html'), '<!doctype html><div id="root"></div>');
    mkdirSync(join(root, 'static', 'js'), { recursive: true });
    writeFileSync(join(root, 'static', 'js', 'index.9f8e.js'), 'console.log(1)');
    writeFileSync(join(root, 'static', 'js', 'index.9f8e.js.br'), brotliCompressSync('console.log(1)'));
    const port = await freePort();
    shell = await serveShell({
      root,
      port,
      host: '127.0.0.1',
      apiUrl: `http://127.0.0.1:${(api.server.address() as { port: number }).port}`,
      remotes: () => {
        registryReads++;
        return registry;
      },
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

  it("gives a write without an Idempotency-Key one of its own, passes a client's key on unchanged, and a load none", async () => {
    const keyOf = async (method: string, headers: Record<string, string> = {}) => {
      const response = await fetch(`${base}/api/scrape/bank/msp/create/`, {
        method,
        headers: { 'content-type': 'application/json', ...headers },
        body: method === 'GET' ? null : '{}',
      });
      return ((await response.json()) as { idempotencyKey?: string }).idempotencyKey;
    };
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    const given = await Promise.all(['POST', 'PUT', 'PATCH', 'DELETE', 'POST'].map((method) => keyOf(method)));
    expect(given).toEqual(Array(5).fill(expect.stringMatching(uuid)));
    expect(new Set(given).size).toBe(5);
    expect(await keyOf('POST', { 'idempotency-key': 'import-42' })).toBe('import-42');
    expect(await keyOf('DELETE', { 'Idempotency-Key': 'c1b7e1f6-0b7e-4a53-9a8e-2f4c1d9e7a10' })).toBe('c1b7e1f6-0b7e-4a53-9a8e-2f4c1d9e7a10');
    expect(await keyOf('GET')).toBeUndefined();
  });

  it('refuses a body over the API limit itself (413 with a detail), and never forwards /api/metrics or /api/backup', async () => {
    const big = await fetch(`${base}/api/auth/jwt/create/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'x', password: 'y'.repeat(5 * 1024 * 1024) }),
    });
    expect(big.status).toBe(413);
    expect((await big.json()).detail).toMatch(/larger than 64 KB/);
    // A journal (about 200 KB a day) is the one body larger than that: its upload goes on to the
    // API, which holds it to its own limit; the same body anywhere else does not.
    const journal = new FormData();
    journal.append('file', new Blob(['x'.repeat(300 * 1024)]), 'EJ_S1AB012345_20250204.txt');
    const upload = await fetch(`${base}/api/journals/`, { method: 'POST', body: journal });
    expect(upload.status).toBe(200);
    expect((await upload.json()).url).toBe('/api/journals/');
    const elsewhere = await fetch(`${base}/api/journals/1/`, { method: 'POST', body: journal });
    expect(elsewhere.status).toBe(413);
    const metrics = await fetch(`${base}/api/metrics`);
    expect(metrics.status).toBe(404);
    expect(await metrics.json()).toEqual({ detail: 'Not found.' });
    expect(metrics.headers.get('permissions-policy')).toContain('camera=()');
    const backup = await fetch(`${base}/api/backup/`, { method: 'POST', headers: { authorization: 'Bearer x' } });
    expect(backup.status).toBe(404);
    expect(await backup.json()).toEqual({ detail: 'Not found.' });
  });

  it("forwards the registry's read and the console's own calls, never the deployers' writes or history (on the API's port)", async () => {
    expect(await (await fetch(`${base}/api/registry/`)).json()).toEqual({ forwardedFor: '127.0.0.1', proxy: 'proxy-secret', url: '/api/registry/' });
    // The admins' Releases and Deploy Tokens, and the shell's load-failure reports.
    for (const [method, path] of [
      ['GET', '/api/registry/status/'],
      ['GET', '/api/registry/tokens/'],
      ['DELETE', '/api/registry/tokens/12/'],
      ['GET', '/api/registry/origins/'],
      ['POST', '/api/registry/origins/'],
      ['DELETE', '/api/registry/origins/3/'],
      ['POST', '/api/registry/admin/failures/'],
    ]) {
      const response = await fetch(`${base}${path}`, method === 'POST' ? { method, headers: { 'content-type': 'application/json' }, body: '{}' } : { method });
      expect((await response.json()).url, path).toBe(path);
    }
    for (const [method, path] of [
      ['POST', '/api/registry/admin/releases/'],
      ['POST', '/api/registry/admin/rollback/'],
      ['POST', '/api/registry/admin/promote/'],
      ['POST', '/api/registry/admin/withdraw/'],
      ['GET', '/api/registry/releases/?name=admin'],
      ['POST', '/api/registry/tokens/12/../../admin/releases/'],
      ['GET', '/api/registry/tokens/x/'],
    ]) {
      const response = await fetch(`${base}${path}`, {
        method,
        headers: { authorization: 'Bearer x', 'content-type': 'application/json' },
        body: method === 'POST' ? '{}' : null,
      });
      expect(response.status, path).toBe(404);
    }
  });

  it('matches its rules on the decoded path: an escaped path never reaches what the plain one may not, and one read two ways is refused', async () => {
    // Each decodes to a path the public origin does not forward.
    for (const path of [
      '/api/%72egistry/email/releases/',
      '/%61pi/registry/admin/releases/',
      '/api/registry/admin%2Freleases/',
      '/api/registry/admin/%72ollback/',
      '/api/%6detrics',
      '/api/%62ackup/',
      '/api/backup/runs/',
    ]) {
      const answer = await rawRequest(base, 'POST', path);
      expect([answer.status, answer.body], path).toEqual([404, JSON.stringify({ detail: 'Not found.' })]);
    }
    for (const [path, reason] of [
      ['/api/%2572egistry/email/releases/', /encoded twice/],
      ['/api/registry/status/%2e%2e/admin/releases/', /\. or \.\. segment/],
      ['/api/registry/status/../admin/releases/', /\. or \.\. segment/],
      ['/api/./registry/admin/releases/', /\. or \.\. segment/],
      ['/api//registry/admin/releases/', /doubled slash/],
      ['/api/registry/admin%5creleases/', /backslash/],
      ['/api/registry\\admin/releases/', /backslash/],
      ['/api/registry/%00/releases/', /NUL/],
      ['/api/%zz/', /not valid percent-encoding/],
      ['/store-password-list/%2e%2e/x', /\. or \.\. segment/],
    ] as const) {
      const answer = await rawRequest(base, 'POST', path);
      expect(answer.status, path).toBe(400);
      expect(JSON.parse(answer.body).detail, path).toMatch(reason);
    }
    // What the console asks for, escaped or not, goes through as it was sent.
    expect(JSON.parse((await rawRequest(base, 'GET', '/api/registry/%73tatus/')).body).url).toBe('/api/registry/%73tatus/');
    expect(JSON.parse((await rawRequest(base, 'GET', '/api/scrape/bank/msp/list/?search=50%25%20off')).body).url).toBe(
      '/api/scrape/bank/msp/list/?search=50%25%20off',
    );
  });

  it('serves remotes.json and the app for client-side routes, with a CSP naming the remote origins', async () => {
    expect(await (await fetch(`${base}/remotes.json`)).json()).toEqual({ remotes: registry });
    const page = await fetch(`${base}/store-password-list`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self' http://localhost:3004");
    expect(csp).toContain("object-src 'none'");
    expect((await fetch(`${base}/static/js/missing.js`)).status).toBe(404);
    const reads = registryReads;
    const script = await rawGet(`${base}/static/js/index.9f8e.js`, 'br');
    expect([script.headers['content-encoding'], brotliDecompressSync(script.body).toString()]).toEqual(['br', 'console.log(1)']);
    // A script carries no policy, so serving it reads no registry.
    expect(script.headers['content-security-policy']).toBeUndefined();
    expect(registryReads).toBe(reads);
  });

  it('reads the remotes on every request: a moved remote or a new screen counts with no restart', async () => {
    registry = [
      {
        ...admin,
        manifest: 'http://cdn.bank.example:8443/admin/2/mf-manifest.json',
        entry: 'http://static.bank.example/admin/2/remoteEntry.js',
        nav: [...admin.nav, { label: 'Reports', path: '/reports', order: 170 }],
      },
    ];
    try {
      const answer = await fetch(`${base}/remotes.json`);
      expect(answer.headers.get('cache-control')).toBe('no-cache');
      expect((await answer.json()).remotes[0].nav.map((n: { label: string }) => n.label)).toEqual(['Password List', 'Reports']);
      const csp = (await fetch(`${base}/users`)).headers.get('content-security-policy')!;
      expect(csp).toContain("script-src 'self' http://cdn.bank.example:8443 http://static.bank.example;");
      expect(csp).not.toContain('localhost:3004');
    } finally {
      registry = [admin];
    }
  });

  it('answers 503 with a detail while the API is down', async () => {
    const root = mkdtempSync(join(tmpdir(), 'shell-'));
    writeFileSync(join(root, 'index.html'), '<!doctype html>');
    const port = await freePort();
    const shellWithoutApi = await serveShell({ root, port, host: '127.0.0.1', apiUrl: 'http://127.0.0.1:1', remotes: () => [] });
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
    const port = await freePort();
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

/** The precompress plugin as Rsbuild runs it after a production build. */
async function precompress(root: string): Promise<void> {
  let afterBuild: () => Promise<void> = async () => {};
  const onAfterBuild = (hook: { handler: () => Promise<void> } | (() => Promise<void>)) => (afterBuild = 'handler' in hook ? hook.handler : hook);
  pluginPrecompress().setup({ context: { distPath: root }, onAfterBuild } as never);
  await afterBuild();
}

describe('precompressed static files', () => {
  it('are written by the build plugin and sent as brotli, gzip or plain, as the client accepts, with immutable caching', async () => {
    const root = mkdtempSync(join(tmpdir(), 'remote-'));
    mkdirSync(join(root, 'static', 'js'), { recursive: true });
    const script = `/* app */\n${Array.from({ length: 2000 }, (_, i) => `export const value${i} = ${i} * 2;`).join('\n')}`;
    writeFileSync(join(root, 'static', 'js', 'app.1a2b3c.js'), script);
    writeFileSync(join(root, 'static', 'js', 'tiny.4d5e.js'), 'x()');
    writeFileSync(join(root, 'mf-manifest.json'), JSON.stringify({ name: 'admin', padding: 'y'.repeat(4000) }));
    await precompress(root);
    expect(brotliDecompressSync(readFileSync(join(root, 'static', 'js', 'app.1a2b3c.js.br'))).toString()).toBe(script);
    expect(gunzipSync(readFileSync(join(root, 'static', 'js', 'app.1a2b3c.js.gz'))).toString()).toBe(script);

    const port = await freePort();
    const remote = await serveRemote(root, port, '127.0.0.1');
    try {
      const url = `http://127.0.0.1:${port}/static/js/app.1a2b3c.js`;
      const br = await rawGet(url, 'gzip, deflate, br');
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(br.headers.vary).toMatch(/accept-encoding/i);
      expect(br.body.length).toBeLessThan(script.length / 5);
      expect(brotliDecompressSync(br.body).toString()).toBe(script);
      const gz = await rawGet(url, 'gzip');
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gz.body).toString()).toBe(script);
      const plain = await rawGet(url, 'identity');
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body.toString()).toBe(script);
      // Too small to be worth it: sent as it is; the manifest compressed but never cached.
      expect((await rawGet(`http://127.0.0.1:${port}/static/js/tiny.4d5e.js`, 'br')).headers['content-encoding']).toBeUndefined();
      const manifest = await rawGet(`http://127.0.0.1:${port}/mf-manifest.json`, 'br');
      expect(manifest.headers['content-encoding']).toBe('br');
      expect(manifest.headers['cache-control']).toBe('no-cache');
    } finally {
      await remote.close();
    }
  });

  it('a small async chunk (under 1 KB) is compressed and sent compressed too; only a file compression would grow is sent as it is', async () => {
    const root = mkdtempSync(join(tmpdir(), 'remote-'));
    mkdirSync(join(root, 'static', 'js', 'async'), { recursive: true });
    // Shaped like the builds' smallest lazy chunk: 759 bytes, which the 1 KB threshold used to skip.
    const chunk = `"use strict";(self.chunk_admin=self.chunk_admin||[]).push([["8"],{${Array.from({ length: 12 }, (_, i) => `${i}:function(e,t,n){n.d(t,{A:()=>r${i}});let r${i}=n(${100 + i})}`).join(',')}}]);`;
    expect(chunk.length).toBeGreaterThan(600);
    expect(chunk.length).toBeLessThan(1024);
    writeFileSync(join(root, 'static', 'js', 'async', '8.2a118fb441.js'), chunk);
    writeFileSync(
      join(root, 'ejdesk-remote.json'),
      JSON.stringify(
        { name: 'admin', paths: ['users', 'audit'], nav: ['Users', 'Audit log', 'Releases'].map((label, order) => ({ label, order, path: `/${label}` })) },
        null,
        2,
      ),
    );
    await precompress(root);

    const port = await freePort();
    const remote = await serveRemote(root, port, '127.0.0.1');
    try {
      const url = `http://127.0.0.1:${port}/static/js/async/8.2a118fb441.js`;
      const br = await rawGet(url, 'gzip, deflate, br');
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.body.length).toBeLessThan(chunk.length);
      expect(brotliDecompressSync(br.body).toString()).toBe(chunk);
      const gz = await rawGet(url, 'gzip');
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gz.body).toString()).toBe(chunk);
      expect((await rawGet(`http://127.0.0.1:${port}/ejdesk-remote.json`, 'br')).headers['content-encoding']).toBe('br');
    } finally {
      await remote.close();
    }
  });

  it('runs after the other plugins have written their files (a remote’s ejdesk-remote.json)', () => {
    let order: string | undefined;
    pluginPrecompress().setup({ context: { distPath: '' }, onAfterBuild: (hook: { order?: string }) => (order = hook.order) } as never);
    expect(order).toBe('post');
  });
});

describe('remotes.json from the registry', () => {
  it('is read through the API each time, and the last one read serves while the API is away', async () => {
    const api = Fastify();
    let version = '1.0.0';
    const entry = (v: string) => ({
      name: 'admin',
      section: 'admin lists',
      paths: ['users'],
      nav: [],
      manifest: `http://cdn.example/admin/${v}/mf-manifest.json`,
      version: v,
    });
    api.get('/api/registry/', async () => ({ api_contract: 1, remotes: [entry(version)], origins: { admin: ['http://cdn.example'] } }));
    await api.listen({ port: 0, host: '127.0.0.1' });
    const remotes = registryFrom(`http://127.0.0.1:${(api.server.address() as { port: number }).port}`);
    expect(await remotes()).toEqual([entry('1.0.0')]);
    version = '1.1.0';
    expect(await remotes()).toEqual([entry('1.1.0')]);
    await api.close();
    expect(await remotes()).toEqual([entry('1.1.0')]);
  });

  it("leaves out an entry whose manifest or entry script is off its remote's allowed origins", async () => {
    const api = Fastify();
    const entry = { name: 'email', section: 'email', paths: ['dashboard'], nav: [], version: '1.0.0' };
    const answer = {
      api_contract: 1,
      remotes: [
        { ...entry, manifest: 'http://cdn.example/email/mf-manifest.json', entry: 'http://cdn.example/email/remoteEntry.js' },
        { ...entry, name: 'ej', manifest: 'http://evil.example/ej/mf-manifest.json' },
        { ...entry, name: 'files', manifest: 'http://cdn.example/files/mf-manifest.json', entry: 'http://evil.example/files/remoteEntry.js' },
        { ...entry, name: 'admin', manifest: 'http://cdn.example/admin/mf-manifest.json' },
      ],
      origins: { email: ['http://cdn.example'], ej: ['http://cdn.example'], files: ['http://cdn.example'], admin: ['http://other.example'] },
    };
    api.get('/api/registry/', async () => answer);
    await api.listen({ port: 0, host: '127.0.0.1' });
    try {
      const remotes = registryFrom(`http://127.0.0.1:${(api.server.address() as { port: number }).port}`);
      expect((await remotes()).map((r) => r.name)).toEqual(['email']);
    } finally {
      await api.close();
    }
  });
});
