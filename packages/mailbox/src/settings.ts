// A mailbox as the ingester and the Mailboxes screen know it: where it is, and how EJ Desk signs
// in to it (a password, or an OAuth2 access token from the bank's identity provider).

/** How EJ Desk signs in, in the words of the IMAP_AUTH setting and the Mailboxes screen. */
export const authMethods = ['password', 'oauth2-client-credentials', 'oauth2-refresh-token'] as const;

export type MailboxAuth =
  | { method: 'password'; password: string }
  /** App-only access (Microsoft 365): the client signs in as itself to the mailboxes it was granted. */
  | { method: 'oauth2-client-credentials'; tokenUrl: string; clientId: string; clientSecret: string; scope: string }
  /** Delegated access (Google Workspace): a person's consent, kept as a refresh token. */
  | { method: 'oauth2-refresh-token'; tokenUrl: string; clientId: string; clientSecret?: string | undefined; scope?: string | undefined; refreshToken: string };

export interface ImapSettings {
  host: string;
  port: number;
  tls: boolean;
  /** The mailbox signed in to (with OAuth2, the address the token is used for). */
  user: string;
  /** The folder read. */
  mailbox: string;
  auth: MailboxAuth;
}

/** The mailbox's name in Mail Flow, its checkpoint's key and the logs: never a secret. */
export const mailboxName = (s: Pick<ImapSettings, 'user' | 'host' | 'port' | 'mailbox'>) =>
  `imap://${encodeURIComponent(s.user)}@${s.host}:${s.port}/${s.mailbox}`;

/** A mailbox as the Mailboxes list stores it (its secrets opened): the API and the ingester read it alike. */
interface StoredMailbox {
  host: string;
  port: number;
  tls: boolean;
  username: string;
  folder: string;
  auth_method: (typeof authMethods)[number];
  token_url: string | null;
  client_id: string | null;
  scope: string | null;
  secret: string | null | undefined;
  refresh_token: string | null | undefined;
}

/** How to sign in to a stored mailbox. */
export function settingsOfStored(m: StoredMailbox): ImapSettings {
  const provider = { tokenUrl: m.token_url ?? '', clientId: m.client_id ?? '' };
  const auth: MailboxAuth =
    m.auth_method === 'password'
      ? { method: 'password', password: m.secret ?? '' }
      : m.auth_method === 'oauth2-client-credentials'
        ? { method: m.auth_method, ...provider, clientSecret: m.secret ?? '', scope: m.scope ?? '' }
        : { method: m.auth_method, ...provider, clientSecret: m.secret ?? undefined, scope: m.scope ?? undefined, refreshToken: m.refresh_token ?? '' };
  return { host: m.host, port: m.port, tls: m.tls, user: m.username, mailbox: m.folder, auth };
}
