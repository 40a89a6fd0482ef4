// The e2e run's mailbox (support/mailbox-server.ts): a real Dovecot on a fixed port that `pnpm
// start` watches, and the control server through which the tests deliver mail and cause an outage.
// The same Dovecot takes OAuth2 tokens from a real provider for the Mailboxes spec's mailbox; the
// provider's certificate is signed by a CA of the run's own, which `pnpm start` is told to trust.
import { resolve } from 'node:path';

export const mailbox = { imapPort: 3143, controlPort: 3198, user: 'ejdesk', password: 'e2e-imap-password' };
export const mailboxControl = `http://127.0.0.1:${mailbox.controlPort}`;
export const oauthMailbox = { user: 'disputes@bank.test', clientId: 'ejdesk-e2e', clientSecret: 'e2e-client-secret-8f3a' };
export const caFile = resolve(import.meta.dirname, '../.artifacts/test-ca.pem');
/** Everything `pnpm start` printed (the API and the ingester hosted in it), for the specs that read it. */
export const appLog = resolve(import.meta.dirname, '../.artifacts/app.log');

/** The run's OpenID provider for people's sign-in (single sign-on), on a fixed port `pnpm start` is told of. */
export const signInProvider = {
  port: 3196,
  /** The console's address (playwright.config.ts's baseURL, which checks it): the client's redirect URIs. */
  consoleOrigin: 'http://localhost:3100',
  clientId: 'ejdesk-console',
  clientSecret: 'e2e-sso-secret-5d1c',
  displayName: 'Bank SSO',
  admins: 'ejdesk-admins',
  operators: 'ejdesk-operators',
};
