// Refusals given before a request's body was read reach a client that is still sending it: a
// multipart or JSON upload streamed by Node's fetch (chunked, or with its length) is answered 401,
// 403 or 413 with its detail, never a reset connection, whether it reaches the API directly or through
// the edge's proxy (`pnpm edge`), which must then pass the API's early answer on, not a 502.
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, login, operator, type TestApp } from './helpers.ts';
import { startEdgeProcess } from './support/api-process.ts';

const size = 2 * 1024 * 1024;
const boundary = 'ejdesk-upload';
/** 2 MB of multipart form (the original client's encoding) or of JSON. */
const bodyOf = (kind: 'multipart' | 'json') =>
  kind === 'json'
    ? Buffer.from(JSON.stringify({ email: 'x'.repeat(size), password: 'x' }))
    : Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="msp"\r\n\r\n`),
        Buffer.alloc(size, 'x'),
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
const upload = (body: Buffer, streamed: boolean): RequestInit => {
  if (!streamed) return { body: new Uint8Array(body) };
  // Sent in 16 KB pieces as they are made, without a length: the server cannot know it in advance.
  let at = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= body.length) return controller.close();
      controller.enqueue(body.subarray(at, (at += 16384)));
    },
  });
  return { body: stream, duplex: 'half' } as RequestInit;
};

describe('early answers to uploads still being sent', () => {
  let t: TestApp;
  let edge: ChildProcess;
  const bases: Record<'the API' | 'the edge', string> = { 'the API': '', 'the edge': '' };
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestApp('pglite');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    bases['the API'] = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
    tokens.operator = (await login(t.app, operator)).access;
    const started = await startEdgeProcess(bases['the API']);
    edge = started.child;
    bases['the edge'] = started.base;
  }, 60_000);
  afterAll(async () => {
    edge?.kill('SIGTERM');
    await t?.close();
  });

  const cases = [
    // Refused by a hook before the body is read.
    { who: 'nobody', kind: 'multipart', path: '/api/scrape/bank/msp/create/', status: 401 },
    { who: 'operator', kind: 'multipart', path: '/api/scrape/bank/msp/create/', status: 403 },
    // Read up to the limit (64 KB), then refused.
    { who: 'nobody', kind: 'json', path: '/api/auth/jwt/create/', status: 413 },
  ] as const;
  for (const hop of ['the API', 'the edge'] as const) {
    for (const streamed of [true, false]) {
      it(`${hop}: 2 MB uploads ${streamed ? 'streamed without a length' : 'with their length'} are answered in words`, async () => {
        for (const { who, kind, path, status } of cases) {
          const token = who === 'nobody' ? undefined : tokens[who];
          const response = await fetch(`${bases[hop]}${path}`, {
            method: 'POST',
            headers: {
              'content-type': kind === 'json' ? 'application/json' : `multipart/form-data; boundary=${boundary}`,
              ...(token && { authorization: `JWT ${token}` }),
            },
            ...upload(bodyOf(kind), streamed),
          }).catch((err: Error) => new Error(`${who} ${kind}: ${err.message} (${String((err.cause as Error | undefined)?.message)})`));
          if (response instanceof Error) throw response;
          // The edge refuses a length over the limit before anything else; the API checks who asks first.
          const expected = hop === 'the edge' && !streamed ? 413 : status;
          expect([who, kind, response.status]).toEqual([who, kind, expected]);
          expect(await response.json()).toEqual({ detail: expect.stringMatching(/\S/) });
        }
      }, 60_000);
    }
  }
});
