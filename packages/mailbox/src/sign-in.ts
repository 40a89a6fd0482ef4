// Signing in to a mailbox: a password, or an OAuth2 access token (SASL XOAUTH2 or OAUTHBEARER,
// whichever the server offers; imapflow picks). A refused token that had been used before (or
// expired meanwhile) is renewed and tried once more: the provider may have revoked it early, or
// the clocks differ.
import { ImapFlow, type ImapFlowOptions } from 'imapflow';
import { AccessTokens, failAfter, SignInError, Unreachable, type Reach } from './access-tokens.ts';
import type { ImapSettings } from './settings.ts';
import { HostNotFound, lookupOf, type MailboxTargets } from './targets.ts';

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
  /** Test connection: only the checked addresses, and every network-level failure alike (see Unreachable). */
  reach?: Reach | undefined;
}

function client(settings: ImapSettings, auth: ImapFlowOptions['auth'], onError: (err: unknown) => void, reach?: Reach): ImapFlow {
  const imap = new ImapFlow({
    host: settings.host,
    port: settings.port,
    secure: settings.tls,
    auth,
    logger: false, // its debug output would include the protocol exchange
    // The host name stays for SNI and the certificate; the connection goes to the checked address.
    ...(reach && { tls: { lookup: lookupOf(reach.imap) } }),
    connectionTimeout: reach?.failureMs ?? 30_000,
    greetingTimeout: reach?.failureMs ?? 15_000,
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
    this.tokens = auth.method === 'password' ? null : new AccessTokens(auth, options.onRefreshTokenRotated, Date.now, options.reach);
  }

  /**
   * imapflow's connect; in a Test connection anything but a refusal by the IMAP server itself (which
   * needs a real IMAP greeting) is an Unreachable, answered no sooner than the others.
   */
  private async open(imap: ImapFlow): Promise<void> {
    const began = Date.now();
    try {
      await imap.connect();
    } catch (err) {
      imap.close();
      const { reach, settings } = this;
      if (!reach || refused(err)) throw err;
      return failAfter(began, reach.failureMs, new Unreachable(`Could not sign in to the mailbox at ${settings.host}:${settings.port}.`, { cause: err }));
    }
  }

  private get reach() {
    return this.options.reach;
  }

  /** A signed-in connection; a SignInError says in words why the server or the provider refused. */
  async connect(): Promise<Connection> {
    const onError = this.options.onError ?? (() => undefined);
    const { settings, tokens } = this;
    if (!tokens) {
      const imap = client(settings, { user: settings.user, pass: settings.auth.method === 'password' ? settings.auth.password : '' }, onError, this.reach);
      try {
        await this.open(imap);
      } catch (err) {
        if (refused(err)) throw new SignInError(`authentication failed: the IMAP server refused the user name or password (${reasonOf(err)})`, { cause: err });
        throw err;
      }
      return { client: imap, renewAt: null };
    }
    let token = await tokens.get();
    let retried = false;
    for (;;) {
      const imap = client(settings, { user: settings.user, accessToken: token.value }, onError, this.reach);
      try {
        await this.open(imap);
        return { client: imap, renewAt: token.expiresAt - (token.expiresAt - token.issuedAt) / 10 };
      } catch (err) {
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

/** How long every network-level failure of a Test connection takes (the budget of a real server too). */
const testFailureMs = 5_000;

/**
 * Where a Test connection goes, every address checked before anything is sent: a TargetRefused
 * names a refused host; a host that cannot be looked up fails like any unreachable one.
 */
async function reachOf(settings: ImapSettings, targets: MailboxTargets): Promise<Reach> {
  const auth = settings.auth;
  const tokenUrl = auth.method === 'password' ? undefined : new URL(auth.tokenUrl);
  const pin = (host: string, field: string, words: string) =>
    targets.pin(host, field).catch((err: unknown) => {
      throw err instanceof HostNotFound ? new Unreachable(words, { cause: err }) : err;
    });
  const imap = await pin(settings.host, 'host', `Could not sign in to the mailbox at ${settings.host}:${settings.port}.`);
  const tokenEndpoint =
    tokenUrl &&
    (await pin(tokenUrl.hostname, 'token_url', `Could not get an access token from the token endpoint at ${tokenUrl.hostname}:${tokenUrl.port || 443}.`));
  return { imap, tokenEndpoint, failureMs: testFailureMs };
}

/**
 * Sign in and open the folder: how many messages it holds, or why it could not be reached, in
 * words. With `targets` (the API's Test connection) only a checked address is reached.
 */
export async function testConnection(
  settings: ImapSettings,
  { targets, ...options }: SignInOptions & { targets?: MailboxTargets | undefined } = {},
): Promise<{ messages: number }> {
  const reach = targets ? await reachOf(settings, targets) : options.reach;
  const { client: imap } = await new MailboxSignIn(settings, { ...options, reach }).connect();
  try {
    const folder = await imap.mailboxOpen(settings.mailbox, { readOnly: true }).catch((err: unknown) => {
      throw new Error(`the folder "${settings.mailbox}" could not be opened (${reasonOf(err)})`, { cause: err });
    });
    return { messages: folder.exists };
  } finally {
    await imap.logout().catch(() => imap.close());
  }
}
