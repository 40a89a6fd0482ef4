// The mail ingester as a library, for its tests: the runs, the mailbox's settings, the log.
export { ingestFromImap, ingestFromPath, processStored, watchImap, type RunOptions } from './run.ts';
export { type ImapSettings } from '@ejdesk/mailbox';
export { createLogger } from './log.ts';
export { watchMailboxes } from './mailboxes.ts';
export { sendAlertsOnce, watchAlerts, webhookRequest } from './alerts/send.ts';
