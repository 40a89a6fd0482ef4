// The API process: reach the database and migrate, then listen (when the database is down, listen
// at once and retry: meanwhile /api/health answers 200, /api/ready and every other request 503); on
// SIGINT/SIGTERM drain (lib/drain.ts): finish the requests and exports in flight, then close the
// pool. EJDESK_HOSTED_WORKER names a module (the mail ingester under `pnpm start`) to run beside
// the API on the same database handle once it is ready.
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import type { Database } from '@ejdesk/db';
import { openConfiguredDatabase } from './database.ts';
import { buildApp } from './app.ts';
import { startingWith } from '@ejdesk/settings';
import { loadConfig } from './config.ts';
import { loadSecrets } from './lib/secrets.ts';
import { drainable } from './lib/drain.ts';

const [config, secrets] = startingWith('EJ Desk API', () => {
  const loaded = loadConfig();
  return [loaded, loadSecrets(loaded)] as const;
});
const reason = (err: unknown) => (err instanceof Error ? err.message : String(err));

type HostedWorker = {
  start(host: { db: Database['db']; bankPassKey: Buffer; embedded: boolean }): Promise<{ stop(): Promise<void>; processQueued(): Promise<void> }>;
};
// Loaded first, so that the hosted worker checks its own settings before the API listens.
const hostedWorker = config.hostedWorker ? ((await import(pathToFileURL(config.hostedWorker).href)) as HostedWorker) : undefined;

const database = await openConfiguredDatabase(config, {
  statementTimeoutMs: config.statementTimeoutMs,
  // The pool drops the failed connection and opens a new one on demand: nothing else to do.
  onConnectionError: (err) => app.log.warn({ reason: reason(err) }, 'database connection lost'),
});
const app = await buildApp({
  database,
  config,
  secrets,
  migrated: false,
  logger: {
    level: config.logLevel,
    redact: ['req.headers.authorization', 'req.headers["x-ejdesk-proxy"]', 'req.body.password', 'req.body.bank_pass'],
  },
});

// Watched from the start: the drain needs to know how long each connection has been idle.
const connections = drainable(app.server);
let stopWorker = async () => undefined as void;
let closing = false;

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing the requests in flight');
    void shutDown();
  });
}

/** Drain (lib/drain.ts), then close the app, the hosted ingester and the pool; exit 0, or 1 past the bound. */
async function shutDown(): Promise<never> {
  app.ctx.status.draining = true;
  // Event streams end first, with a reconnect hint: the tabs open them again on another instance.
  await app.ctx.live.close();
  const drained = await connections.drain({ idleMs: 6_000, boundMs: config.shutdownSeconds * 1000, leaveMs: 2_000, passedOn: () => app.ctx.status.passedOn });
  if (!drained) app.log.error(`requests still running after ${config.shutdownSeconds} s (SHUTDOWN_SECONDS); exiting without them`);
  try {
    await app.close();
    await stopWorker();
    await database.close();
  } catch (err) {
    app.log.error({ err }, 'shutdown failed');
    process.exit(1);
  }
  process.exit(drained ? 0 : 1);
}

/** Reach the database and migrate; false (and logged) when it does not answer yet. */
const migrated = async () => {
  try {
    await database.migrate();
    app.ctx.status.migrated = true;
    return true;
  } catch (err) {
    app.log.warn({ reason: reason(err) }, 'database not ready');
    return false;
  }
};

// Under `pnpm start`: its word that it listens (an answer on the port could be another process's).
const listen = async () => {
  await app.listen({ host: config.host, port: config.port });
  process.send?.({ listening: config.port });
};

// One try before listening: an instance restarted behind a proxy takes no request (a POST answered
// 503 cannot be passed on) until it can serve it. A database still down is waited for listening,
// /api/health answering meanwhile: 1 s doubling to 10 s between tries.
if (!(await migrated())) {
  await listen();
  for (let delay = 1_000; !closing && !(await migrated()); delay = Math.min(delay * 2, 10_000)) {
    app.log.warn(`trying the database again in ${delay / 1000} s`);
    await sleep(delay);
  }
} else await listen();

if (hostedWorker && !closing) {
  const hosted = await hostedWorker.start({ db: database.db, bankPassKey: secrets.bankPassKey, embedded: database.backend === 'pglite' });
  stopWorker = hosted.stop;
  app.ctx.ingest.processQueued = hosted.processQueued;
}
