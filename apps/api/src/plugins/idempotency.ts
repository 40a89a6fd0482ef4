// Writes answered once, however often they arrive. Every POST, PUT, PATCH and DELETE runs in one
// transaction with its Idempotency-Key: the key is claimed first (a repeat of a finished write
// gets the stored answer, a concurrent repeat waits for the first one's commit), the answer is
// stored last, and both commit with the write or not at all. nginx resends a write another
// instance failed with the same key (its $request_id); the console keeps one key per user action
// across its retries. Without a key the write is still atomic, under a key of its own.
//
// The same transaction makes a database restart survivable: a write that fails because the
// connection dropped is rolled back, so it is run again once the pool reconnects (within
// `retryMs` of its arrival), or answered 503 with nothing written. A commit whose answer was lost
// is looked up by its key once the database is back.
//
// Routes that run again harmlessly (a login, a connection test, a reprocess that waits for the
// ingester) say `config: { idempotency: 'repeatable' }`: no transaction, no key kept (their
// answers hold tokens, or their work must commit before they wait on another process).
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHmac, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import { sql } from 'drizzle-orm';
import {
  claimIdempotencyKey,
  idempotencyKeyStored,
  isDatabaseUnavailable,
  purgeIdempotencyKeys,
  recordIdempotentAnswer,
  type Database,
  type Db,
  type StoredAnswer,
} from '@ejdesk/db';
import { unavailableDetail } from './errors.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** 'repeatable': running the write twice is harmless; it takes no transaction and keeps no key. */
    idempotency?: 'repeatable';
  }
}

const writeMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** A key as callers make them: a UUID, nginx's $request_id, any 1 to 200 visible ASCII characters. */
const keyPattern = /^[\x21-\x7e]{1,200}$/;

/** The write's open transaction, as the request's handler and the onSend hook reach it. */
interface OpenWrite {
  tx: Db;
  owner: string;
  key: string;
  secret: boolean;
  deadline: number;
  /** Ends the transaction: commit (resolves once committed) or roll back; the first call decides. */
  finish(commit: boolean): Promise<void>;
}

interface Scope {
  tx: Db | undefined;
}
const scope = new AsyncLocalStorage<Scope>();
const openWrites = new WeakMap<FastifyRequest, OpenWrite>();
/** Writes whose answer is on its way (onSend has begun): never run again. */
const answering = new WeakSet<FastifyRequest>();

/**
 * The handle routes use: the request's write transaction while one is open (this async context),
 * the pool otherwise. Routes take `db` once at registration; this keeps that one line true.
 */
export function requestScopedDb(base: Db): Db {
  return new Proxy(base, {
    get(target, property) {
      const db = scope.getStore()?.tx ?? target;
      const value = Reflect.get(db, property, db) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(db) : value;
    },
  });
}

/** Sorted keys, so that the same fields in another order (or another encoding of a form) hash alike. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object' && !Buffer.isBuffer(value))
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
    );
  return value;
}

/**
 * The request's fingerprint, keyed with the signing secret: bodies may hold passwords, and a plain
 * hash kept a day would let one who reads the table try guesses against it.
 */
const requestHash = (request: FastifyRequest, secret: string) =>
  createHmac('sha256', secret)
    .update(JSON.stringify([request.method, request.url, canonical(request.body ?? null)]))
    .digest('base64url');

/** Whose key it is: another user's request with the same key is another request. */
const ownerOf = (request: FastifyRequest) =>
  request.user ? `user:${request.user.id}` : request.deployToken ? `deploy:${request.deployToken.name}` : 'anonymous';

/** `hashes`: the request's under the current secret, then the previous one (a key stored before a rotation). */
function replay(reply: FastifyReply, stored: StoredAnswer, hashes: string[]) {
  if (!hashes.includes(stored.requestHash))
    return reply.code(422).send({ detail: 'This Idempotency-Key was used for another request; a new request needs a new key.' });
  if (stored.body === null)
    return reply.code(409).send({ detail: 'This request was done already; its answer held a secret, which is not kept. Look for the result in the list.' });
  reply.code(stored.status).header('idempotent-replayed', 'true');
  if (stored.contentType) reply.header('content-type', stored.contentType);
  return reply.send(stored.status === 204 ? null : stored.body);
}

/** Waits until the database answers again; false when `deadline` comes first. */
async function databaseBack(db: Db, deadline: number): Promise<boolean> {
  while (Date.now() < deadline) {
    if (
      await db.execute(sql`select 1`).then(
        () => true,
        () => false,
      )
    )
      return true;
    await sleep(250);
  }
  return false;
}

/**
 * Whether work that failed with `error` may run again: the database connection dropped, and the
 * database answers again before `deadline`. Not at once: an error `select 1` does not meet would
 * otherwise spin until the deadline.
 */
async function mayRunAgain(error: unknown, db: Db, deadline: number): Promise<boolean> {
  if (!isDatabaseUnavailable(error)) return false;
  await sleep(250);
  return databaseBack(db, deadline);
}

/** When each write stops being retried: WRITE_RETRY_SECONDS after it arrived. */
const writeDeadlines = new WeakMap<FastifyRequest, number>();

/**
 * Runs a lookup a write needs before its handler (the token's user) and, when the database
 * connection dropped, runs it again once the pool reconnects, within the write's retry window:
 * a write that arrives while PostgreSQL restarts waits for it, as one already running does.
 */
export async function retriedForWrite<T>(request: FastifyRequest, db: Db, lookup: () => Promise<T>): Promise<T> {
  const deadline = writeDeadlines.get(request);
  for (;;) {
    try {
      return await lookup();
    } catch (error) {
      if (deadline === undefined || !(await mayRunAgain(error, db, deadline))) throw error;
    }
  }
}

export function registerIdempotency(
  app: FastifyInstance,
  database: Database,
  { retryMs, hashSecrets }: { retryMs: number; hashSecrets: [string, ...string[]] },
): void {
  const base = database.db;

  async function once(this: unknown, handler: RouteHandlerMethod, request: FastifyRequest, reply: FastifyReply): Promise<unknown> {
    const header = request.headers['idempotency-key'];
    if (header !== undefined && (typeof header !== 'string' || !keyPattern.test(header)))
      return reply.code(400).send({ detail: 'header: Idempotency-Key must be 1 to 200 visible ASCII characters (a UUID).' });
    const owner = ownerOf(request);
    const key = header ?? `auto:${randomUUID()}`;
    const hashes = hashSecrets.map((secret) => requestHash(request, secret));
    const hash = hashes[0]!;
    // Set on arrival (the onRequest hook below), so that a retried user lookup shares the window.
    const deadline = writeDeadlines.get(request)!;
    for (;;) {
      let open: OpenWrite | undefined;
      try {
        const begun = await database.begin();
        const store: Scope = { tx: begun.tx };
        open = {
          tx: begun.tx,
          owner,
          key,
          secret: request.routeOptions.config.secret === true,
          deadline,
          finish: (commit) => {
            store.tx = undefined;
            return begun.end(commit);
          },
        };
        const claimed = await claimIdempotencyKey(open.tx, owner, key, hash);
        if (claimed !== true) {
          await open.finish(false);
          return replay(reply, claimed, hashes);
        }
        openWrites.set(request, open);
        reply.code(200);
        return await scope.run(store, () => (handler as (this: unknown, ...args: unknown[]) => unknown).call(this, request, reply));
      } catch (error) {
        openWrites.delete(request);
        await open?.finish(false).catch(() => undefined);
        // Rolled back: nothing of this try is written, so it may run again on a reconnected pool.
        if (reply.sent || answering.has(request) || !(await mayRunAgain(error, base, deadline))) throw error;
        request.log.warn({ reason: (error as Error).message }, 'database connection lost mid-write; running the write again');
      }
    }
  }

  app.addHook('onRequest', async (request) => {
    if (writeMethods.has(request.method)) writeDeadlines.set(request, Date.now() + retryMs);
  });

  app.addHook('onRoute', (route) => {
    const methods = [route.method].flat();
    if (!methods.some((m) => writeMethods.has(m)) || route.config?.idempotency === 'repeatable') return;
    const handler = route.handler;
    route.handler = function (this: unknown, request: FastifyRequest, reply: FastifyReply) {
      return writeMethods.has(request.method) ? once.call(this, handler, request, reply) : handler.call(this as FastifyInstance, request, reply);
    } as RouteHandlerMethod;
  });

  // Last of the onSend hooks (registered after the error handling's): the answer as it leaves.
  app.addHook('onSend', async (request, reply, payload) => {
    const open = openWrites.get(request);
    if (!open) return payload;
    openWrites.delete(request);
    answering.add(request);
    if (reply.statusCode >= 500) {
      await open.finish(false).catch(() => undefined);
      return payload;
    }
    const body = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : payload == null ? '' : null;
    try {
      await recordIdempotentAnswer(open.tx, open.owner, open.key, {
        status: reply.statusCode,
        contentType: (reply.getHeader('content-type') as string | undefined) ?? null,
        // A refusal holds no secret: kept, so that its repeat is refused alike.
        body: open.secret && reply.statusCode < 300 ? null : body,
      });
      await open.finish(true);
      return payload;
    } catch (error) {
      await open.finish(false).catch(() => undefined);
      if (!isDatabaseUnavailable(error)) throw error;
      // The commit's answer was lost with the connection: whether it happened, the key says.
      const back = await databaseBack(base, open.deadline);
      const stored = back ? await idempotencyKeyStored(base, open.owner, open.key).catch(() => undefined) : undefined;
      if (stored) return payload;
      reply.code(503).header('retry-after', '5').header('content-type', 'application/json; charset=utf-8');
      if (stored === false) {
        request.log.warn({ reason: (error as Error).message }, 'database unavailable at commit; not written');
        return JSON.stringify({ detail: unavailableDetail });
      }
      // Still unreachable: the commit may have been made. The same key will tell.
      request.log.warn({ reason: (error as Error).message }, 'database unavailable at commit; outcome unknown');
      return JSON.stringify({ detail: 'The database became unavailable while this write was saved; send it again with the same Idempotency-Key.' });
    }
  });

  // A day's answers are kept; older ones go once an hour.
  const purge = setInterval(() => void purgeIdempotencyKeys(base).catch(() => undefined), 3_600_000);
  purge.unref();
  app.addHook('onClose', async () => clearInterval(purge));
}
