// /api/admin/audit-log/: admins only. The audit log: read and exported, never changed: no route
// writes to it, and the rows are added only by the actions they record.
import { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { auditBatches, listAudit, type AuditFilters, type AuditRow as Row } from '@ejdesk/db';
import { csvChunks, type ExportColumn } from '@ejdesk/export/server';
import { pageOf, sendPage } from '../../lib/pagination.ts';
import { AuditExportQuery, AuditQuery, AuditRow } from '@ejdesk/contract/schemas/audit.ts';
import { errorResponses, FileAnswer } from '@ejdesk/contract/schemas/common.ts';
import { Paginated } from '@ejdesk/contract/schemas/lists.ts';

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

export const auditRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.ctx;

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
};
