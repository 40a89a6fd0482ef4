// /api/admin/audit-log/: admins only. The audit log: read and exported, never changed: no route
// writes to it, and the rows are added only by the actions they record.
import { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { auditBatches, chainBatches, extendAuditChain, listAudit, verifyAuditChain, type AuditExportRow as Row, type AuditFilters } from '@ejdesk/db';
import { csvChunks, type ExportColumn } from '@ejdesk/export/server';
import { pageOf, sendPage } from '../../lib/pagination.ts';
import { AuditChainQuery, AuditChainReport, AuditExportQuery, AuditQuery, AuditRow } from '@ejdesk/contract/schemas/audit.ts';
import { errorResponses, FileAnswer } from '@ejdesk/contract/schemas/common.ts';
import { Paginated } from '@ejdesk/contract/schemas/lists.ts';
import { chainFileLines, chainSigner } from './chain-file.ts';

const auditColumns: ExportColumn<Row>[] = [
  { header: 'When (UTC)', value: (r) => r.at.toISOString().replace('T', ' ').slice(0, 19) },
  { header: 'Who', value: 'user_email' },
  { header: 'What', value: 'action' },
  { header: 'Entity', value: 'entity' },
  { header: 'Entity ID', value: 'entity_id' },
  { header: 'Detail', value: 'detail' },
  { header: 'IP', value: 'ip' },
  // The chain, for an auditor: the entry, its time and user exactly as hashed, and its two hashes.
  { header: 'Entry', value: 'id' },
  { header: 'Chain #', value: 'chain_seq' },
  { header: 'At (hashed)', value: 'at_hashed' },
  { header: 'User ID', value: 'user_id' },
  { header: 'Previous hash', value: 'prev_hash' },
  { header: 'Hash', value: 'hash' },
];

const filtersOf = (q: { who?: string | undefined; action?: string | undefined; from?: string | undefined; to?: string | undefined }): AuditFilters => ({
  who: q.who?.trim() || undefined,
  action: q.action || undefined,
  from: q.from || undefined,
  to: q.to || undefined,
});

export const auditRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.ctx;
  const signer = chainSigner(app.ctx.secrets.jwtSecret);

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
      await extendAuditChain(db, true);
      const stream = Readable.from(csvChunks(auditBatches(db, filtersOf(request.query)), auditColumns));
      return reply.type('text/csv; charset=utf-8').header('content-disposition', 'attachment; filename="audit_log.csv"').send(stream);
    },
  );

  app.get('/audit-log/verify/', { config: { credential: 'admin' }, schema: { response: { 200: AuditChainReport, ...errorResponses } } }, async () =>
    verifyAuditChain(db),
  );

  app.get(
    '/audit-log/chain/',
    {
      config: { credential: 'admin' },
      schema: { querystring: AuditChainQuery, response: { 200: FileAnswer('application/x-ndjson'), ...errorResponses } },
    },
    async (request, reply) => {
      const range = { from: request.query.from || undefined, to: request.query.to || undefined };
      await extendAuditChain(db, true);
      const name = `audit_log_chain${range.from ? `_from_${range.from}` : ''}${range.to ? `_to_${range.to}` : ''}.jsonl`;
      return reply
        .type('application/x-ndjson; charset=utf-8')
        .header('content-disposition', `attachment; filename="${name}"`)
        .send(Readable.from(chainFileLines(chainBatches(db, range), signer)));
    },
  );
};
