// Signing in to a mailbox: a password, or an OAuth2 access token (SASL XOAUTH2 or OAUTHBEARER,
// whichever the server offers; imapflow picks). A refused token that had been used before (or
// expired meanwhile) is renewed and tried once more: the provider may have revoked it early, or
// the clocks differ.
import { ImapFlow, type ImapFlowOptions } from 'imapflow';
import { AccessTokens, SignInError } from './access-tokens.ts';
import type { ImapSettings } from './settings.ts';

/** An error's message without anything that could carry a credential (imapflow puts none there). */
export const reasonOf = (err: unknown): string => {
  const e = err as { message?: string; responseText?: string; code?: string };
  return [e?.code, e?.responseText ?? e?.message ?? String(err)].filter(Boolean).join(': ');
};

const refused = (err: unknown) => (err as { authenticationFailed?: boolean }).authenticationFailed === true;

interface Connection {
  client: ImapFlow;
  /**
   * When the access token it signed in with is due for renewal (null with a password): a session
   * that outlives its token is ended by servers such as Exchange Online, so the ingester signs in
   * again then, with a new one.
   */
  renewAt: number | null;
}

interface SignInOptions {
  /** Where a connection's asynchronous errors go (imapflow emits them; unheard, they would crash). */
  onError?: (err: unknown) => void;
  /** Keep a refresh token the provider rotated. */
  onRefreshTokenRotated?: ((refreshToken: string) => Promise<void>) | undefined;
}

function client(settings: ImapSettings, auth: ImapFlowOptions['auth'], onError: (err: unknown) => void): ImapFlow {
  const imap = new ImapFlow({
    host: settings.host,
    port: settings.port,
    secure: settings.tls,
    auth,
    logger: false, // its debug output would include the protocol exchange
    connectionTimeout: 30_000,
    greetingTimeout: 15_000,
    socketTimeout: 5 * 60_000,
    // Enter IDLE one second after the last command, so new mail is reported within about a second.
    autoIdleDelay: 1000,
  });
  imap.on('error', onError);
  return imap;
}

/** One mailbox's way in: keeps its access token between connections. */
export class MailboxSignIn {
  private readonly tokens: AccessTokens | null;

  constructor(
    readonly settings: ImapSettings,
    private readonly options: SignInOptions = {},
  ) {
    const auth = settings.auth;
    this.tokens = auth.method === 'password' ? null : new AccessTokens(auth, options.onRefreshTokenRotated);
  }

  /** A signed-in connection; a SignInError says in words why the server or the provider refused. */
  async connect(): Promise<Connection> {
    const onError = this.options.onError ?? (() => undefined);
    const { settings, tokens } = this;
    if (!tokens) {
      const imap = client(settings, { user: settings.user, pass: settings.auth.method === 'password' ? settings.auth.password : '' }, onError);
      try {
        await imap.connect();
      } catch (err) {
        imap.close();
        if (refused(err)) throw new SignInError(`authentication failed: the IMAP server refused the user name or password (${reasonOf(err)})`, { cause: err });
        throw err;
      }
      return { client: imap, renewAt: null };
    }
    let token = await tokens.get();
    let retried = false;
    for (;;) {
      const imap = client(settings, { user: settings.user, accessToken: token.value }, onError);
      try {
        await imap.connect();
        return { client: imap, renewAt: token.expiresAt - (token.expiresAt - token.issuedAt) / 10 };
      } catch (err) {
        imap.close();
        if (!refused(err)) throw err;
        // One more try with a new token when this one had been used before, or expired while the
        // server made up its mind (a server that slows sign-ins after failures, as Dovecot does).
        const stale = token.reused || Date.now() >= token.expiresAt;
        if (!stale || retried) throw new SignInError(`authentication failed: the IMAP server refused the access token (${reasonOf(err)})`, { cause: err });
        retried = true;
        token = await tokens.renew();
      }
    }
  }
}

/** Sign in and open the folder: how many messages it holds, or why it could not be reached, in words. */
export async function testConnection(settings: ImapSettings, options: SignInOptions = {}): Promise<{ messages: number }> {
  const { client: imap } = await new MailboxSignIn(settings, options).connect();
  try {
    const folder = await imap.mailboxOpen(settings.mailbox, { readOnly: true }).catch((err: unknown) => {
      throw new Error(`the folder "${settings.mailbox}" could not be opened (${reasonOf(err)})`, { cause: err });
    });
    return { messages: folder.exists };
  } finally {
    await imap.logout().catch(() => imap.close());
  }
}
