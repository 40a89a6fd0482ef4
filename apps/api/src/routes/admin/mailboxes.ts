// /api/admin/mailboxes/: the mailboxes the ingester watches (list, add, change, delete; each
// audited), and Test connection: sign in and open the folder, for a stored mailbox or for the form
// before it is saved. Secrets go in, never out.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  changeMailbox,
  checkMailbox,
  createMailbox,
  keepRefreshToken,
  listMailboxes,
  mailboxesToSignIn,
  removeMailbox,
  RuleProblem,
  storedSecrets,
  type MailboxInput,
  type MailboxRow,
  type Written,
} from '@ejdesk/db';
import { mailboxName, reasonOf, settingsOfStored, testConnection, type ImapSettings } from '@ejdesk/mailbox';
import { Type } from 'typebox';
import { IdParams } from '@ejdesk/contract/schemas/admin.ts';
import { errorResponses } from '@ejdesk/contract/schemas/common.ts';
import { ConnectionTest, Mailbox, MailboxBody, MailboxTestBody } from '@ejdesk/contract/schemas/mailboxes.ts';

const withSource = (row: MailboxRow) => ({ ...row, source: mailboxName({ user: row.username, host: row.host, port: row.port, mailbox: row.folder }) });

/** Test connection's answer: a refusal is the mailbox's state, not the request's failure. */
async function tried(settings: ImapSettings, keepRefreshToken?: (token: string) => Promise<void>) {
  try {
    return { connected: true, messages: (await testConnection(settings, { onRefreshTokenRotated: keepRefreshToken })).messages };
  } catch (err) {
    return { connected: false, detail: reasonOf(err) };
  }
}

export const mailboxRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, secrets } = app.ctx;
  const key = secrets.bankPassKey;
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

  app.get('/mailboxes/', { schema: { response: { 200: Type.Array(Mailbox), ...errorResponses } } }, async () => (await listMailboxes(db)).map(withSource));

  app.post('/mailboxes/', { schema: { body: MailboxBody, response: { 201: Mailbox, ...errorResponses } } }, async (request, reply) => {
    const input = checked(request.body);
    if (typeof input === 'string') return reply.code(400).send({ detail: input });
    const { status, body } = answer(await createMailbox(db, key, request.user!.id, input), input);
    return reply.code(status === 200 ? 201 : status).send(body);
  });

  app.put('/mailboxes/:id/', { schema: { params: IdParams, body: MailboxBody, response: { 200: Mailbox, ...errorResponses } } }, async (request, reply) => {
    const stored = await storedSecrets(db, request.params.id);
    if (!stored) return reply.code(404).send({ detail: 'Not found.' });
    const input = checked(request.body, stored);
    if (typeof input === 'string') return reply.code(400).send({ detail: input });
    const { status, body } = answer(await changeMailbox(db, key, request.user!.id, request.params.id, input), input);
    return reply.code(status).send(body);
  });

  app.delete('/mailboxes/:id/', { schema: { params: IdParams, response: { 204: Type.Null(), ...errorResponses } } }, async (request, reply) => {
    const removed = await removeMailbox(db, request.user!.id, request.params.id);
    if (removed === 'missing' || removed === 'conflict') return reply.code(404).send({ detail: 'Not found.' });
    return reply.code(204).send(null);
  });

  // The form, before it is saved: its own secrets, or (with `id`) the stored ones it leaves out.
  app.post('/mailboxes/test/', { schema: { body: MailboxTestBody, response: { 200: ConnectionTest, ...errorResponses } } }, async (request, reply) => {
    const { id, ...body } = request.body;
    const stored = id ? (await mailboxesToSignIn(db, key, { id }))[0] : undefined;
    if (id && !stored) return reply.code(404).send({ detail: 'Not found.' });
    const input = checked(body, { secret: Boolean(stored?.secret), refreshToken: Boolean(stored?.refresh_token) });
    if (typeof input === 'string') return reply.code(400).send({ detail: input });
    // A stored refresh token that the provider rotates here is kept (the old one is spent).
    const keep = stored && input.refresh_token === undefined ? (token: string) => keepRefreshToken(db, key, stored.id, token) : undefined;
    return tried(settingsOfStored({ ...input, secret: input.secret ?? stored?.secret, refresh_token: input.refresh_token ?? stored?.refresh_token }), keep);
  });

  app.post('/mailboxes/:id/test/', { schema: { params: IdParams, response: { 200: ConnectionTest, ...errorResponses } } }, async (request, reply) => {
    const [stored] = await mailboxesToSignIn(db, key, { id: request.params.id });
    if (!stored) return reply.code(404).send({ detail: 'Not found.' });
    return tried(settingsOfStored(stored), (token) => keepRefreshToken(db, key, stored.id, token));
  });
};
