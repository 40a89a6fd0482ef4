// Static serving for `pnpm start` and the end-to-end tests, shaped like production: the shell's
// server owns the app's origin and forwards /api to the API (as an ingress would); each remote is a
// folder of static files on its own origin (as a CDN would serve it).
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import fastifyStatic from '@fastify/static';
import httpProxy from '@fastify/http-proxy';
import { answerClientError, bodyLimit, discardUnreadBody, permissionsPolicy } from '@ejdesk/http';
import type { RegistryEntry } from '@ejdesk/contract';

interface ShellServerOptions {
  root: string;
  port: number;
  host: string;
  apiUrl: string;
  /**
   * The remotes as remotes.json names them, read on every request (no-cache), so a remote's new
   * build, screen or address counts at the next page load with no restart of this server; the
   * CSP is derived from the same list per request.
   */
  remotes: (authorization?: string) => RegistryEntry[] | Promise<RegistryEntry[]>;
  /** Sent to the API in X-EJDesk-Proxy: the API believes this proxy's X-Forwarded-For only. */
  proxySecret?: string | undefined;
  /** Largest request body forwarded (the API's own limit); larger ones are refused here with 413. */
  maxBodyBytes?: number;
  /** Largest journal upload forwarded (POST /api/journals/, the API's JOURNAL_UPLOAD_MAX_MB). */
  maxUploadBytes?: number;
}

/** The one route whose bodies are files (an operator's journal upload), not JSON. */
const uploadPath = '/api/journals/';

const detail = (text: string) => JSON.stringify({ detail: text });
/** The methods the API takes an Idempotency-Key on. */
const writeMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The path as the API will route it: percent-escapes decoded once. Every rule here is matched on
 * it, so an escape (`/api/%72egistry/...`, `/%61pi/...`) cannot dress a refused path as another.
 * A path that would still differ after one more decoding, or that a server could read two ways
 * (NUL, backslash, dot segments, doubled slashes under /api/), is refused: no request needs them.
 */
function decodedPath(url: string): { path: string } | { refused: string } {
  const raw = url.split('?')[0]!;
  let path: string;
  try {
    path = decodeURIComponent(raw);
  } catch {
    return { refused: 'The path is not valid percent-encoding.' };
  }
  if (path.includes('%')) return { refused: 'The path holds a percent-escape that decodes to another (encoded twice).' };
  if (path.includes('\0') || path.includes('\\')) return { refused: 'The path holds a NUL or a backslash.' };
  if (path.split('/').some((segment) => segment === '.' || segment === '..')) return { refused: 'The path holds a . or .. segment.' };
  if (/^\/api(\/|$)/.test(path) && path.includes('//')) return { refused: 'The path holds a doubled slash.' };
  return { path };
}
const underApi = (url: string) => {
  const decoded = decodedPath(url);
  return 'path' in decoded && decoded.path.startsWith('/api/');
};

/** Whether each URL a registry entry loads from is on its remote's allowed origins. */
const onAllowedOrigins = (entry: RegistryEntry, origins: Record<string, string[]>) =>
  [entry.manifest, ...(entry.entry ? [entry.entry] : [])].every((url) => {
    try {
      return (origins[entry.name] ?? []).includes(new URL(url).origin);
    } catch {
      return false;
    }
  });

/**
 * remotes.json from the remote registry, read through the API on every call, so every shell server
 * behind a load balancer serves the same; while the API is away (a restart), the last one read.
 * Asked with the page's access token, the API answers that operator's releases (a canary's for
 * the operators in its share). An entry off its remote's allowed origins (which the API never
 * serves) is left out here too, so neither remotes.json nor the CSP can name such an origin.
 */
export function registryFrom(apiUrl: string): (authorization?: string) => Promise<RegistryEntry[]> {
  let last: RegistryEntry[] = [];
  return async (authorization) => {
    try {
      const response = await fetch(`${apiUrl}/api/registry/`, {
        signal: AbortSignal.timeout(3_000),
        ...(authorization ? { headers: { authorization } } : {}),
      });
      if (!response.ok) return last;
      const answer = (await response.json()) as { remotes: RegistryEntry[]; origins?: Record<string, string[]> };
      const remotes = answer.remotes.filter((entry) => onAllowedOrigins(entry, answer.origins ?? {}));
      if (!authorization) last = remotes;
      return remotes;
    } catch {
      // the API is restarting: the last registry read stands
      return last;
    }
  };
}

/** Why the API could not be reached, in the API's own {"detail"} shape. */
function upstreamFailure(error: Error & { code?: string }): [number, string] {
  const code = (error.cause as { code?: string } | undefined)?.code ?? error.code ?? '';
  if (/ECONNREFUSED|ECONNRESET|UND_ERR_SOCKET|ENOTFOUND|SERVICE_UNAVAILABLE/.test(code) || /ECONNREFUSED|connect/i.test(error.message)) {
    return [503, 'The API is unavailable; try again.'];
  }
  if (/TIMEOUT/i.test(code)) return [504, 'The API did not answer in time; try again.'];
  return [502, 'The API gave no valid answer; try again.'];
}

const immutable = 'public, max-age=31536000, immutable';

function cacheHeaders(path: string): string {
  // Hashed assets never change; entry files and manifests must be re-read to switch versions.
  return /\/static\//.test(path) ? immutable : 'no-cache';
}

export async function serveShell(options: ShellServerOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: false,
    clientErrorHandler: answerClientError,
    // A path the router cannot decode: the same {"detail"} as every refusal here.
    frameworkErrors: (error, _request, reply) =>
      void (reply as FastifyReply)
        .code(400)
        .type('application/json')
        .send(detail(error.code === 'FST_ERR_BAD_URL' ? 'The path is not valid percent-encoding.' : error.message)),
  });
  // The registry serves only releases on their remotes' allowed origins: the policy names those
  // releases' origins (manifest and entry), and no other.
  const cspFor = (remotes: RegistryEntry[]) => {
    const remoteOrigins = [...new Set(remotes.flatMap((r) => [r.manifest, ...(r.entry ? [r.entry] : [])]).map((url) => new URL(url).origin))].join(' ');
    return [
      "default-src 'self'",
      `script-src 'self' ${remoteOrigins}`,
      // The browser's XLSX writer (write-excel-file, through fflate) compresses in a worker it makes
      // from a blob: URL of this origin's own code.
      "worker-src 'self' blob:",
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
  };

  const maxBodyBytes = options.maxBodyBytes ?? bodyLimit;
  const maxUploadBytes = options.maxUploadBytes ?? 50 * 1024 * 1024;
  app.addHook('onRequest', async (request, reply) => {
    const decoded = decodedPath(request.url);
    if ('refused' in decoded) return reply.code(400).type('application/json').send(detail(decoded.refused));
    const { path } = decoded;
    if (!path.startsWith('/api/')) return;
    // Metrics (the operators' monitoring) and backups (`pnpm backup`) are on the API's own port,
    // not the public origin.
    if (/^\/api\/(metrics|backup)(\/|$)/.test(path)) return reply.code(404).type('application/json').send(detail('Not found.'));
    // The registry's writes and history are for the deployers, on the API's own port: the public
    // origin forwards its read (remotes.json's source) and the console's own calls only (the admins'
    // Releases, allowed origins and Deploy Tokens, and the shell's load-failure reports).
    if (/^\/api\/registry\/./.test(path) && !/^\/api\/registry\/((tokens|origins)\/(\d+\/)?|status\/|[a-z][a-z0-9-]*\/failures\/)$/.test(path))
      return reply.code(404).type('application/json').send(detail('Not found.'));
    // Refused here: the API would refuse it too, but only after the proxy had started streaming it.
    const limit = request.method === 'POST' && path === uploadPath ? maxUploadBytes : maxBodyBytes;
    if (Number(request.headers['content-length'] ?? 0) > limit) {
      const size = limit >= 1024 * 1024 ? `${limit / 1024 / 1024} MB` : `${limit / 1024} KB`;
      return reply
        .code(413)
        .type('application/json')
        .header('connection', 'close')
        .send(detail(`The request body is larger than ${size}.`));
    }
  });
  app.addHook('onSend', async (request, reply) => {
    // Its own 413, or the API's early answer passed on: the client's body is read to its end first.
    await discardUnreadBody(request.raw);
    reply.header('permissions-policy', permissionsPolicy);
    if (underApi(request.url)) return;
    // A policy governs documents: only a page needs the registry read that derives it, not each
    // script, style or remotes.json.
    if (String(reply.getHeader('content-type') ?? '').startsWith('text/html')) {
      reply.header('content-security-policy', cspFor(await options.remotes()));
    }
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'same-origin');
    reply.header('x-frame-options', 'DENY');
  });
  await app.register(httpProxy, {
    upstream: options.apiUrl,
    prefix: '/api',
    rewritePrefix: '/api',
    // As long as nginx gives the API (proxy_read_timeout 5m in deploy/nginx/ejdesk.conf): a status
    // set on every dispute matching a broad filter can take longer than the library's 10 s.
    http: { requestOptions: { timeout: 300_000 } },
    replyOptions: {
      onError: (reply, { error }) => {
        const [status, text] = upstreamFailure(error);
        void reply.code(status).type('application/json').header('retry-after', '5').send(detail(text));
      },
      // This server is the edge: the API learns the client's address from it (login throttling is
      // per IP). A client's own X-Forwarded-For is replaced, never trusted. Every write reaches the
      // API with an Idempotency-Key: one of its own if the client sent none; a client's own is passed
      // on unchanged, since only it ties the client's retries of one action together.
      rewriteRequestHeaders: (request, headers) => ({
        ...headers,
        'x-forwarded-for': request.socket.remoteAddress ?? '',
        'x-forwarded-proto': 'http',
        ...(options.proxySecret ? { 'x-ejdesk-proxy': options.proxySecret } : {}),
        ...(writeMethods.has(request.method) && !headers['idempotency-key'] ? { 'idempotency-key': randomUUID() } : {}),
      }),
    },
  });
  app.get('/remotes.json', async (request, reply) =>
    reply
      .header('cache-control', 'no-cache')
      .header('vary', 'authorization')
      .send({ remotes: await options.remotes(request.headers.authorization) }),
  );
  await app.register(fastifyStatic, {
    root: options.root,
    wildcard: false,
    index: false,
    // The build wrote .br and .gz beside each file (rsbuild.shared.ts): sent as the client accepts.
    preCompressed: true,
    setHeaders: (res, path) => res.header('cache-control', cacheHeaders(path)),
  });
  const indexHtml = readFileSync(join(options.root, 'index.html'));
  // Every other path is a client-side route: the shell decides (unknown ones go to /login).
  app.setNotFoundHandler((request, reply) => {
    if ((request.method !== 'GET' && request.method !== 'HEAD') || request.url.startsWith('/static/') || underApi(request.url)) {
      return reply.code(404).type('application/json').send(detail('Not found.'));
    }
    return reply.type('text/html').header('cache-control', 'no-cache').send(indexHtml);
  });
  await app.listen({ port: options.port, host: options.host });
  return app;
}

/**
 * The CSP of a remote's own standalone page (a team running its remote alone): its own scripts and
 * styles, the API on the same host.
 */
const remotePageCsp = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * A remote's static server. Under `pnpm start` and `pnpm remote serve`, root holds one folder per
 * published version (`/1.4.0/mf-manifest.json`): every release stays loadable, so a page opened on
 * the previous one keeps working after a deploy.
 */
export async function serveRemote(root: string, port: number, host: string): Promise<FastifyInstance> {
  mkdirSync(root, { recursive: true });
  const app = Fastify({ logger: false });
  // The build's stats name every module and its source path: for the build, not the public.
  app.addHook('onRequest', async (request, reply) => {
    if (/^\/mf-stats\.json(\?|$)/.test(request.url)) return reply.code(404).send('Not found');
  });
  app.addHook('onSend', async (_request, reply) => {
    // Static, public files loaded by the shell's origin.
    reply.header('access-control-allow-origin', '*');
    reply.header('x-content-type-options', 'nosniff');
    reply.header('permissions-policy', permissionsPolicy);
    if (String(reply.getHeader('content-type') ?? '').startsWith('text/html')) {
      reply.header('content-security-policy', remotePageCsp);
      reply.header('x-frame-options', 'DENY');
    }
  });
  await app.register(fastifyStatic, { root, preCompressed: true, setHeaders: (res, path) => res.header('cache-control', cacheHeaders(path)) });
  await app.listen({ port, host });
  return app;
}
