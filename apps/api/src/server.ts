// The API process: listen at once, then reach the database and migrate (retrying while it is down:
// meanwhile /api/health answers 200, /api/ready and every other request 503); on SIGINT/SIGTERM
// finish in-flight requests, then close the pool. EJDESK_HOSTED_WORKER names a module (the mail
// ingester under `pnpm start`) to run beside the API on the same database handle once it is ready.
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import type { Database } from '@ejdesk/db';
import { openConfiguredDatabase } from './database.ts';
import { buildApp } from './app.ts';
import { startingWith } from '@ejdesk/settings';
import { loadConfig } from './config.ts';
import { loadSecrets } from './lib/secrets.ts';

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

let stopWorker = async () => undefined as void;
let closing = false;

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    // close() waits for in-flight requests; a keep-alive connection that goes idle after close()
    // began would hold the server open until its timeout, so idle ones are closed as they appear.
    const sweep = setInterval(() => app.server.closeIdleConnections(), 100);
    const deadline = setTimeout(() => {
      app.log.error('shutdown took longer than 20 s; exiting');
      process.exit(1);
    }, 20_000);
    app
      .close()
      .then(() => stopWorker())
      .then(() => database.close())
      .then(() => process.exit(0))
      .catch((err: unknown) => {
        app.log.error({ err }, 'shutdown failed');
        process.exit(1);
      })
      .finally(() => {
        clearInterval(sweep);
        clearTimeout(deadline);
      });
  });
}

await app.listen({ host: config.host, port: config.port });

// Reach the database: 1 s doubling to 10 s between tries, until it answers and is migrated.
for (let delay = 1_000; !closing; delay = Math.min(delay * 2, 10_000)) {
  try {
    await database.migrate();
    app.ctx.status.migrated = true;
    break;
  } catch (err) {
    app.log.warn({ reason: reason(err) }, `database not ready; trying again in ${delay / 1000} s`);
    await sleep(delay);
  }
}

if (hostedWorker && !closing) {
  const hosted = await hostedWorker.start({ db: database.db, bankPassKey: secrets.bankPassKey, embedded: database.backend === 'pglite' });
  stopWorker = hosted.stop;
  app.ctx.ingest.processQueued = hosted.processQueued;
}
