// Reaching a bank's mailbox: its settings, signing in (password or OAuth2), testing a connection,
// and which addresses the API may reach on an admin's word; and a stored message's attachments.
export { authMethods, mailboxName, settingsOfStored, type ImapSettings, type MailboxAuth } from './settings.ts';
export { MailboxSignIn, reasonOf, testConnection } from './sign-in.ts';
export { Unreachable } from './access-tokens.ts';
export { HostNotFound, MailboxTargets, networkRanges, TargetRefused } from './targets.ts';
export type { ImapFlow } from 'imapflow';
export { readAttachments, type AttachmentInfo } from './attachments.ts';
