// /api/admin/mailboxes/: the mailboxes the ingester watches (list, add, change, delete; each
// audited), and Test connection: sign in and open the folder, for a stored mailbox or for the form
// before it is saved. Secrets go in, never out, and a stored one only to where it was saved. The
// API reaches public addresses only, and the private ones in MAILBOX_ALLOWED_NETWORKS; each Test
// connection is limited per admin and audited, and a network-level failure reads (and takes) the
// same however it failed, so the test is no port scanner.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger } from 'fastify';
import {
  audit,
  beginMailboxTest,
  changeMailbox,
  checkMailbox,
  createMailbox,
  keepRefreshToken,
  listMailboxes,
  mailboxById,
  mailboxesToSignIn,
  mailboxTestsPerMinute,
  removeMailbox,
  reusableSecrets,
  RuleProblem,
  secretsElsewhere,
  type MailboxInput,
  type MailboxRow,
  type Written,
} from '@ejdesk/db';
import {
  HostNotFound,
  mailboxName,
  MailboxTargets,
  reasonOf,
  settingsOfStored,
  TargetRefused,
  testConnection,
  Unreachable,
  type ImapSettings,
} from '@ejdesk/mailbox';
import { Type } from 'typebox';
import { IdParams } from '@ejdesk/contract/schemas/admin.ts';
import { errorResponses } from '@ejdesk/contract/schemas/common.ts';
import { ConnectionTest, ConnectionTestRefusals, Mailbox, MailboxBody, MailboxRefusals, MailboxTestBody } from '@ejdesk/contract/schemas/mailboxes.ts';

const withSource = (row: MailboxRow) => ({ ...row, source: mailboxName({ user: row.username, host: row.host, port: row.port, mailbox: row.folder }) });

/** What a Test connection answered, and its outcome for the audit log (never a secret). */
interface Tested {
  status: 200 | 400 | 404;
  body: { connected: boolean; messages?: number; detail?: string } | { detail: string };
  outcome: string;
}

const refusal = (status: 400 | 404, detail: string): Tested => ({ status, body: { detail }, outcome: `refused: ${detail}` });

/** A mailbox's place in the audit log: where it is and how it signs in (the token endpoint by its origin only). */
function described(m: {
  username: string;
  host: string;
  port: number;
  folder?: string | undefined;
  auth_method: string;
  token_url?: string | null | undefined;
}) {
  let provider = '';
  try {
    if (m.auth_method !== 'password' && m.token_url) provider = `, token endpoint ${new URL(m.token_url).origin}`;
  } catch {
    provider = ', token endpoint not a URL';
  }
  return `${m.username.trim()} at ${m.host.trim().toLowerCase()}:${m.port}/${m.folder?.trim() || 'INBOX'} (${m.auth_method}${provider})`;
}

export const mailboxRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, secrets, config } = app.ctx;
  const key = secrets.bankPassKey;
  const targets = new MailboxTargets(config.mailboxAllowedNetworks);
  const checked = (body: unknown, stored?: { secret: boolean; refreshToken: boolean }): MailboxInput | string => {
    try {
      return checkMailbox(body as Record<string, unknown>, stored);
    } catch (err) {
      if (err instanceof RuleProblem) return `body: ${err.message}.`;
      throw err;
    }
  };
  const answer = (written: Written<MailboxRow>, input: MailboxInput) =>
    written === 'conflict'
      ? { status: 400, body: { detail: `The mailbox ${input.username} at ${input.host}:${input.port}/${input.folder} is already on the list.` } }
      : written === 'missing'
        ? { status: 404, body: { detail: 'Not found.' } }
        : { status: 200, body: withSource(written) };

  /** Why a mailbox's server or token endpoint may not be saved (a 400's detail), checking only what changed. */
  async function refusedTarget(input: MailboxInput, before?: MailboxRow): Promise<string | undefined> {
    const hosts: [string, string][] = [];
    if (input.host !== before?.host) hosts.push(['host', input.host]);
    if (input.token_url && input.token_url !== before?.token_url) hosts.push(['token_url', new URL(input.token_url).hostname]);
    for (const [field, host] of hosts) {
      try {
        await targets.pin(host, field);
      } catch (err) {
        if (err instanceof TargetRefused || err instanceof HostNotFound) return `${field}: ${err.message}`;
        throw err;
      }
    }
    return undefined;
  }

  /** Sign in and open the folder, reaching only checked addresses; a refused target is the request's 400. */
  async function tried(log: FastifyBaseLogger, settings: ImapSettings, keepRefreshToken?: (token: string) => Promise<void>): Promise<Tested> {
    try {
      const { messages } = await testConnection(settings, { targets, onRefreshTokenRotated: keepRefreshToken });
      return { status: 200, body: { connected: true, messages }, outcome: `connected, ${messages} message${messages === 1 ? '' : 's'}` };
    } catch (err) {
      if (err instanceof TargetRefused) return refusal(400, `${err.field}: ${err.message}`);
      // The answer says only that it failed; the log says why, for the operators.
      if (err instanceof Unreachable) {
        const cause = err.cause as { cause?: unknown } | undefined;
        log.warn({ reason: [cause, cause?.cause].filter(Boolean).map(reasonOf).join(': ') }, `Test connection: ${err.message}`);
      }
      const detail = reasonOf(err);
      return { status: 200, body: { connected: false, detail }, outcome: `not connected: ${detail}` };
    }
  }

  /**
   * One Test connection: refused past the admin's limit (429, not audited: a flood must not grow the
   * log), else audited as it begins (who, where, which secret) and with its outcome.
   */
  async function testing(
    request: { user: { id: number } | null; log: FastifyBaseLogger },
    about: { entityId: number | null; detail: string },
    run: () => Promise<Tested>,
  ) {
    const userId = request.user!.id;
    const begun = await beginMailboxTest(db, userId, about);
    if (!begun.allowed) {
      request.log.info({ retryAfter: begun.retryAfter }, 'Test connection refused: over the limit');
      return {
        status: 429 as const,
        retryAfter: begun.retryAfter,
        body: {
          detail: `Too many connection tests: an admin may start ${mailboxTestsPerMinute} a minute. Try again in ${begun.retryAfter} second${begun.retryAfter === 1 ? '' : 's'}.`,
        },
      };
    }
    const { status, body, outcome } = await run();
    await audit(db, { userId, action: 'test_result', entity: 'mailbox', entityId: about.entityId === null ? null : String(about.entityId), detail: outcome });
    return { status, body, retryAfter: undefined };
  }

  app.get('/mailboxes/', { config: { credential: 'admin' }, schema: { response: { 200: Type.Array(Mailbox), ...errorResponses } } }, async () =>
    (await listMailboxes(db)).map(withSource),
  );

  app.post(
    '/mailboxes/',
    { config: { credential: 'admin' }, schema: { body: MailboxBody, response: { 201: Mailbox, ...errorResponses, ...MailboxRefusals } } },
    async (request, reply) => {
      const input = checked(request.body);
      if (typeof input === 'string') return reply.code(400).send({ detail: input });
      const refused = await refusedTarget(input);
      if (refused) return reply.code(400).send({ detail: refused });
      const { status, body } = answer(await createMailbox(db, key, request.user!.id, input), input);
      return reply.code(status === 200 ? 201 : status).send(body);
    },
  );

  app.put(
    '/mailboxes/:id/',
    { config: { credential: 'admin' }, schema: { params: IdParams, body: MailboxBody, response: { 200: Mailbox, ...errorResponses, ...MailboxRefusals } } },
    async (request, reply) => {
      const before = await mailboxById(db, request.params.id);
      if (!before) return reply.code(404).send({ detail: 'Not found.' });
      const input = checked(request.body, reusableSecrets(before, request.body.auth_method));
      if (typeof input === 'string') return reply.code(400).send({ detail: input });
      const refused = secretsElsewhere(before, input) ?? (await refusedTarget(input, before));
      if (refused) return reply.code(400).send({ detail: refused });
      const { status, body } = answer(await changeMailbox(db, key, request.user!.id, request.params.id, input), input);
      return reply.code(status).send(body);
    },
  );

  app.delete(
    '/mailboxes/:id/',
    { config: { credential: 'admin' }, schema: { params: IdParams, response: { 204: Type.Null(), ...errorResponses } } },
    async (request, reply) => {
      const removed = await removeMailbox(db, request.user!.id, request.params.id);
      if (removed === 'missing' || removed === 'conflict') return reply.code(404).send({ detail: 'Not found.' });
      return reply.code(204).send(null);
    },
  );

  // The form, before it is saved: its own secrets, or (with `id`) the stored ones it leaves out,
  // which go only to the stored mailbox's server and provider.
  app.post(
    '/mailboxes/test/',
    {
      config: { credential: 'admin', idempotency: 'repeatable' },
      schema: { body: MailboxTestBody, response: { 200: ConnectionTest, ...errorResponses, ...ConnectionTestRefusals } },
    },
    async (request, reply) => {
      const { id, ...body } = request.body;
      const typed = [body.secret && 'secret', body.refresh_token && 'refresh token'].filter(Boolean).join(' and ');
      const about = {
        entityId: id ?? null,
        detail: `Test connection of ${described(body)}${id ? ` for mailbox ${id}` : ''}, ${typed ? `${typed} typed` : id ? 'stored secrets' : 'no secret'}`,
      };
      const {
        status,
        body: answered,
        retryAfter,
      } = await testing(request, about, async () => {
        const stored = id ? (await mailboxesToSignIn(db, key, { id }))[0] : undefined;
        if (id && !stored) return refusal(404, 'Not found.');
        const storedRow = stored && { ...stored, has_secret: stored.secret !== null, has_refresh_token: stored.refresh_token !== null };
        const reusable = stored ? reusableSecrets(storedRow, body.auth_method) : undefined;
        const input = checked(body, reusable);
        if (typeof input === 'string') return refusal(400, input);
        const elsewhere = storedRow && secretsElsewhere(storedRow, input);
        if (elsewhere) return refusal(400, elsewhere);
        const storedRefreshToken = reusable?.refreshToken && input.refresh_token === undefined;
        // A stored refresh token that the provider rotates here is kept (the old one is spent).
        const keep = stored && storedRefreshToken ? (token: string) => keepRefreshToken(db, key, stored.id, token) : undefined;
        const settings = settingsOfStored({
          ...input,
          secret: input.secret ?? (reusable?.secret ? stored?.secret : undefined),
          refresh_token: input.refresh_token ?? (storedRefreshToken ? stored?.refresh_token : undefined),
        });
        return tried(request.log, settings, keep);
      });
      if (retryAfter) reply.header('retry-after', String(retryAfter));
      return reply.code(status).send(answered);
    },
  );

  app.post(
    '/mailboxes/:id/test/',
    {
      config: { credential: 'admin', idempotency: 'repeatable' },
      schema: { params: IdParams, response: { 200: ConnectionTest, ...errorResponses, ...ConnectionTestRefusals } },
    },
    async (request, reply) => {
      const [stored] = await mailboxesToSignIn(db, key, { id: request.params.id });
      const about = { entityId: request.params.id, detail: `Test connection of ${stored ? described(stored) : 'no such mailbox'}, stored secrets` };
      const { status, body, retryAfter } = await testing(request, about, async () =>
        stored ? tried(request.log, settingsOfStored(stored), (token) => keepRefreshToken(db, key, stored.id, token)) : refusal(404, 'Not found.'),
      );
      if (retryAfter) reply.header('retry-after', String(retryAfter));
      return reply.code(status).send(body);
    },
  );
};
