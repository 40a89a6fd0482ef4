// Static serving for `pnpm start` and the end-to-end tests, shaped like production: the shell's
// server owns the app's origin and forwards /api to the API (as an ingress would); each remote is a
// folder of static files on its own origin (as a CDN would serve it).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import httpProxy from '@fastify/http-proxy';

export interface ShellServerOptions {
  root: string;
  port: number;
  host: string;
  apiUrl: string;
  /** name -> mf-manifest.json URL, served as /remotes.json. */
  remotes: Record<string, string>;
}

const immutable = 'public, max-age=31536000, immutable';

function cacheHeaders(path: string): string {
  // Hashed assets never change; entry files and manifests must be re-read to switch versions.
  return /\/static\//.test(path) ? immutable : 'no-cache';
}

export async function serveShell(options: ShellServerOptions): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  const remoteOrigins = [...new Set(Object.values(options.remotes).map((url) => new URL(url).origin))].join(' ');
  const csp = [
    "default-src 'self'",
    `script-src 'self' ${remoteOrigins}`,
    `connect-src 'self' ${remoteOrigins}`,
    // React style attributes and the toast library's injected styles.
    `style-src 'self' 'unsafe-inline' ${remoteOrigins}`,
    `img-src 'self' data:`,
    `font-src 'self' ${remoteOrigins}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');

  app.addHook('onSend', async (request, reply) => {
    if (request.url.startsWith('/api/')) return;
    reply.header('content-security-policy', csp);
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'same-origin');
    reply.header('x-frame-options', 'DENY');
  });
  await app.register(httpProxy, {
    upstream: options.apiUrl,
    prefix: '/api',
    rewritePrefix: '/api',
    http: {},
    replyOptions: {
      // This server is the edge: the API learns the client's address from it (login throttling is
      // per IP). A client's own X-Forwarded-For is replaced, never trusted.
      rewriteRequestHeaders: (request, headers) => ({
        ...headers,
        'x-forwarded-for': request.socket.remoteAddress ?? '',
        'x-forwarded-proto': 'http',
      }),
    },
  });
  app.get('/remotes.json', async (_request, reply) => reply.header('cache-control', 'no-cache').send(options.remotes));
  await app.register(fastifyStatic, {
    root: options.root,
    wildcard: false,
    index: false,
    setHeaders: (res, path) => res.header('cache-control', cacheHeaders(path)),
  });
  const indexHtml = readFileSync(join(options.root, 'index.html'));
  // Every other path is a client-side route: the shell decides (unknown ones go to /login).
  app.setNotFoundHandler((request, reply) => {
    if ((request.method !== 'GET' && request.method !== 'HEAD') || request.url.startsWith('/static/')) return reply.code(404).send('Not found');
    return reply.type('text/html').header('cache-control', 'no-cache').send(indexHtml);
  });
  await app.listen({ port: options.port, host: options.host });
  return app;
}

export async function serveRemote(root: string, port: number, host: string): Promise<FastifyInstance> {
  if (!existsSync(join(root, 'mf-manifest.json'))) throw new Error(`${root} has no mf-manifest.json: build it first`);
  const app = Fastify({ logger: false });
  app.addHook('onSend', async (_request, reply) => {
    // Static, public files loaded by the shell's origin.
    reply.header('access-control-allow-origin', '*');
    reply.header('x-content-type-options', 'nosniff');
  });
  await app.register(fastifyStatic, { root, setHeaders: (res, path) => res.header('cache-control', cacheHeaders(path)) });
  await app.listen({ port, host });
  return app;
}
