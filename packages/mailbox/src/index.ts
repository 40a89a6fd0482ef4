// Reaching a bank's mailbox: its settings, signing in (password or OAuth2), testing a connection.
export { AccessTokens, SignInError, type AccessToken } from './access-tokens.ts';
export { authMethods, mailboxName, type AuthMethod, type ImapSettings, type MailboxAuth } from './settings.ts';
export { MailboxSignIn, reasonOf, testConnection, type Connection, type SignInOptions } from './sign-in.ts';
export type { ImapFlow } from 'imapflow';
