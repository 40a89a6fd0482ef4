// The Mailboxes admin list: where each mailbox is and how EJ Desk signs in. Secrets are
// write-only: an answer says whether one is stored, never what it is.
import { Type } from 'typebox';
import { Detail, RequiredText, Timestamp } from './common.ts';

export const AuthMethod = Type.Union([Type.Literal('password'), Type.Literal('oauth2-client-credentials'), Type.Literal('oauth2-refresh-token')]);

export const Mailbox = Type.Object({
  id: Type.Integer(),
  /** As Mail Flow names it: imap://user@host:port/folder. */
  source: Type.String(),
  host: Type.String(),
  port: Type.Integer(),
  tls: Type.Boolean(),
  username: Type.String(),
  folder: Type.String(),
  auth_method: AuthMethod,
  token_url: Type.Union([Type.String(), Type.Null()]),
  client_id: Type.Union([Type.String(), Type.Null()]),
  scope: Type.Union([Type.String(), Type.Null()]),
  /** Whether a password or client secret, and a refresh token, are stored. */
  has_secret: Type.Boolean(),
  has_refresh_token: Type.Boolean(),
  enabled: Type.Boolean(),
  create_at: Timestamp,
  update_at: Timestamp,
});

/** A new mailbox, or a change: a secret left out (or empty) keeps the one stored. */
export const MailboxBody = Type.Object(
  {
    host: RequiredText(253),
    port: Type.Integer({ minimum: 1, maximum: 65535 }),
    tls: Type.Boolean(),
    username: RequiredText(320),
    folder: Type.Optional(RequiredText(200)),
    auth_method: AuthMethod,
    token_url: Type.Optional(Type.Union([Type.String({ maxLength: 2000 }), Type.Null()])),
    client_id: Type.Optional(Type.Union([Type.String({ maxLength: 500 }), Type.Null()])),
    scope: Type.Optional(Type.Union([Type.String({ maxLength: 2000 }), Type.Null()])),
    /** The password (password) or the client secret (OAuth2). */
    secret: Type.Optional(Type.String({ maxLength: 4000 })),
    refresh_token: Type.Optional(Type.String({ maxLength: 8000 })),
    enabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

/** What Test connection found: the folder's message count, or why it could not sign in or open it. */
export const ConnectionTest = Type.Object({
  connected: Type.Boolean(),
  messages: Type.Optional(Type.Integer()),
  detail: Type.Optional(Type.String()),
});

/**
 * Test connection for the form before it is saved; with `id`, the stored secrets it leaves out are
 * used, and then only with the server, port, TLS setting, token endpoint and client id they were
 * saved with.
 */
export const MailboxTestBody = Type.Object({ ...MailboxBody.properties, id: Type.Optional(Type.Integer({ minimum: 1 })) }, { additionalProperties: false });

const refusedTarget = 'a server or token endpoint that is not on the public internet and not in MAILBOX_ALLOWED_NETWORKS';
const elsewhere = 'a stored secret that would go elsewhere than where it was saved (type it again)';

/** A mailbox's add or change refused, as the OpenAPI document describes it. */
export const MailboxRefusals = {
  400: Type.Object(Detail.properties, { description: `A body that breaks a rule, ${refusedTarget}, or (a change) ${elsewhere}; the detail says which.` }),
};

/** Test connection refused, as the OpenAPI document describes it (a failure to connect is a 200). */
export const ConnectionTestRefusals = {
  400: Type.Object(Detail.properties, { description: `A body that breaks a rule, ${refusedTarget}, or ${elsewhere}; the detail says which.` }),
  429: Type.Object(Detail.properties, { description: 'Past 10 tests a minute by this admin: Retry-After says when the next one may start.' }),
};
