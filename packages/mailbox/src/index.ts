// Reaching a bank's mailbox: its settings, signing in (password or OAuth2), testing a connection.
export { authMethods, mailboxName, settingsOfStored, type ImapSettings, type MailboxAuth } from './settings.ts';
export { MailboxSignIn, reasonOf, testConnection } from './sign-in.ts';
export type { ImapFlow } from 'imapflow';
