// /api/admin/*: admins only (a valid token is not enough). The audit log: read and exported, never
// changed: no route here writes to it, and the rows are added only by the actions they record.
// The users: listed, created, given a role, disabled or enabled again (each change audited).
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  emailProcessing,
  requeueEmail,
  auditBatches,
  changeAccount,
  createAccount,
  listAccounts,
  listAudit,
  resetAccountPassword,
  type AuditFilters,
  type AuditRow as Row,
} from '@ejdesk/db';
import { Type } from 'typebox';
import { hashPassword } from '../../lib/passwords.ts';
import { Account, AccountParams, ChangeAccountBody, CreateAccountBody, ResetPasswordBody } from '@ejdesk/contract/schemas/accounts.ts';
import { csvChunks, type ExportColumn } from '@ejdesk/export/server';
import { pageOf, sendPage } from '../../lib/pagination.ts';
import { unknownPathsNeed } from '../../plugins/credentials.ts';
import { AuditExportQuery, AuditQuery, AuditRow } from '@ejdesk/contract/schemas/audit.ts';
import { Detail, errorResponses, FileAnswer } from '@ejdesk/contract/schemas/common.ts';
import { Paginated } from '@ejdesk/contract/schemas/lists.ts';
import { IdParams } from '@ejdesk/contract/schemas/admin.ts';
import { Reprocessed } from '@ejdesk/contract/schemas/mail-flow.ts';
import { mailboxRoutes } from './mailboxes.ts';
import { ruleRoutes } from './rules.ts';

const auditColumns: ExportColumn<Row>[] = [
  { header: 'When (UTC)', value: (r) => r.at.toISOString().replace('T', ' ').slice(0, 19) },
  { header: 'Who', value: 'user_email' },
  { header: 'What', value: 'action' },
  { header: 'Entity', value: 'entity' },
  { header: 'Entity ID', value: 'entity_id' },
  { header: 'Detail', value: 'detail' },
  { header: 'IP', value: 'ip' },
];

const filtersOf = (q: { who?: string | undefined; action?: string | undefined; from?: string | undefined; to?: string | undefined }): AuditFilters => ({
  who: q.who?.trim() || undefined,
  action: q.action || undefined,
  from: q.from || undefined,
  to: q.to || undefined,
});

export const adminApiRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.ctx;
  // An unknown path asks for an admin's token too.
  app.addHook('onRequest', unknownPathsNeed('admin'));
  app.setNotFoundHandler((_request, reply) => reply.code(404).send({ detail: 'Not found.' }));

  app.get(
    '/audit-log/',
    { config: { credential: 'admin' }, schema: { querystring: AuditQuery, response: { 200: Paginated(AuditRow), ...errorResponses } } },
    async (request, reply) => {
      const page = pageOf(request.query);
      return sendPage(request, reply, page, await listAudit(db, filtersOf(request.query), page));
    },
  );

  app.get(
    '/audit-log/export/',
    { config: { credential: 'admin' }, schema: { querystring: AuditExportQuery, response: { 200: FileAnswer('text/csv'), ...errorResponses } } },
    async (request, reply) => {
      const stream = Readable.from(csvChunks(auditBatches(db, filtersOf(request.query)), auditColumns));
      return reply.type('text/csv; charset=utf-8').header('content-disposition', 'attachment; filename="audit_log.csv"').send(stream);
    },
  );

  await app.register(ruleRoutes);
  await app.register(mailboxRoutes);

  // Reprocess one email: back on the queue (its rows and files removed, audited), then processed at
  // once by the ingester hosted in this process; without one, it waits for a running ingester.
  app.post(
    '/emails/:id/reprocess/',
    {
      config: { credential: 'admin', idempotency: 'repeatable' },
      schema: { params: IdParams, response: { 200: Reprocessed, 202: Reprocessed, 409: Detail, ...errorResponses } },
    },
    async (request, reply) => {
      const { id } = request.params;
      if (!(await requeueEmail(db, request.user!.id, id, request.clientIp))) {
        const known = await emailProcessing(db, id);
        if (!known) return reply.code(404).send({ detail: 'Not found.' });
        return reply.code(409).send({ detail: 'This email has no stored message to process again (it was not read from a mailbox or a mail file).' });
      }
      // The hosted ingester works through the queue; a long backlog answers 202 after 30 s (the
      // email is then processed in its turn, and Mail Flow shows it).
      const processQueued = app.ctx.ingest.processQueued;
      if (processQueued) {
        const done = new AbortController();
        await Promise.race([processQueued().finally(() => done.abort()), sleep(30_000, undefined, { signal: done.signal }).catch(() => undefined)]);
      }
      const { waiting, ...now } = (await emailProcessing(db, id))!;
      const processed = !waiting;
      return reply.code(processed ? 200 : 202).send({
        id,
        processed,
        ...now,
        detail: processed ? `Processed again: ${now.category}.` : 'Queued: the mail ingester processes it in its turn.',
      });
    },
  );

  app.get('/users/', { config: { credential: 'admin' }, schema: { response: { 200: Type.Array(Account), ...errorResponses } } }, async () => listAccounts(db));

  app.post(
    '/users/',
    { config: { credential: 'admin' }, schema: { body: CreateAccountBody, response: { 201: Account, ...errorResponses } } },
    async (request, reply) => {
      const { email, password, role } = request.body;
      const row = await createAccount(db, request.user!.id, email.trim(), await hashPassword(password), role);
      if (!row) return reply.code(400).send({ detail: `An account for '${email.trim()}' already exists.` });
      return reply.code(201).send(row);
    },
  );

  app.patch(
    '/users/:id/',
    { config: { credential: 'admin' }, schema: { params: AccountParams, body: ChangeAccountBody, response: { 200: Account, ...errorResponses } } },
    async (request, reply) => {
      const { role, is_active } = request.body;
      // An admin cannot lock themselves out: another admin has to do it.
      if (request.params.id === request.user!.id && (is_active === false || role === 'operator')) {
        return reply.code(400).send({ detail: 'You cannot disable your own account or take away your own admin role; ask another admin.' });
      }
      const row = await changeAccount(db, request.user!.id, request.params.id, { role, isActive: is_active });
      if (!row) return reply.code(404).send({ detail: 'Not found.' });
      return row;
    },
  );

  app.post(
    '/users/:id/reset-password/',
    { config: { credential: 'admin' }, schema: { params: AccountParams, body: ResetPasswordBody, response: { 200: Account, ...errorResponses } } },
    async (request, reply) => {
      const row = await resetAccountPassword(db, request.user!.id, request.params.id, await hashPassword(request.body.password));
      if (!row) return reply.code(404).send({ detail: 'Not found.' });
      return row;
    },
  );
};
