// The mail ingester as a library: `pnpm start` runs watchImap beside the API on the same database.
export { ingestFromImap, ingestFromPath, processStored, watchImap, type RunOptions, type WatchOptions } from './run.ts';
export { mailboxName, type ImapSettings } from './sources/imap.ts';
export { createLogger } from './log.ts';
export { Summary } from './summary.ts';
