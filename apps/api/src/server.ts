// The API process: open the database, migrate, serve; on SIGINT/SIGTERM finish in-flight requests,
// then close the pool. EJDESK_HOSTED_WORKER names a module (the mail ingester under `pnpm start`)
// to run beside the API on the same database handle.
import { pathToFileURL } from 'node:url';
import { openConfiguredDatabase } from './database.ts';
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { loadSecrets } from './lib/secrets.ts';

const config = loadConfig();
const secrets = loadSecrets(config);
const database = await openConfiguredDatabase(config);
await database.migrate();
const app = await buildApp({
  db: database.db,
  config,
  secrets,
  logger: {
    level: config.logLevel,
    redact: ['req.headers.authorization', 'req.body.password', 'req.body.bank_pass'],
  },
});

type HostedWorker = { start(host: { db: typeof database.db; bankPassKey: Buffer }): Promise<() => Promise<void>> };
let stopWorker = async () => undefined as void;
if (process.env.EJDESK_HOSTED_WORKER) {
  const worker = (await import(pathToFileURL(process.env.EJDESK_HOSTED_WORKER).href)) as HostedWorker;
  stopWorker = await worker.start({ db: database.db, bankPassKey: secrets.bankPassKey });
}

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
