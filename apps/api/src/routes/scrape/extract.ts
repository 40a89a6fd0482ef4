// EJ error data (docs/api.md) and its streamed export.
import type { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ejOrderFields, listEjRecords, type EjFilters, type EjOrder } from '@ejdesk/db';
import { exportFiles } from '@ejdesk/export/server';
import { ejCsvStream, ejJsonArrayStream, ejXlsxStream } from '../../lib/ej-export.ts';
import { parseOrdering } from '../../lib/ordering.ts';
import { pageOf, sendPage } from '../../lib/pagination.ts';
import { Detail, errorResponses, FileAnswer } from '@ejdesk/contract/schemas/common.ts';
import { EjExportQuery, EjFileRecord, EjRecord, EjTableQuery, EmptyQuery } from '@ejdesk/contract/schemas/ej-records.ts';
import { Paginated } from '@ejdesk/contract/schemas/lists.ts';

interface FilterQuery {
  start_date?: string | undefined;
  end_date?: string | undefined;
  atm_id?: string | undefined;
  bank_name?: string | undefined;
  card_no?: string | undefined;
  mail_subject?: string | undefined;
  mail_received_from?: string | undefined;
}

const filtersOf = (kind: EjFilters['kind'], q: FilterQuery): EjFilters => ({
  kind,
  startDate: q.start_date,
  endDate: q.end_date,
  atmId: q.atm_id?.trim(),
  bankName: q.bank_name,
  cardNo: q.card_no?.trim(),
  mailSubject: q.mail_subject,
  mailReceivedFrom: q.mail_received_from,
});

/** Fastify sends a stream as it is; the route's schema still documents what the stream holds. */
const streamed = (stream: Readable) => stream as never;

/** Each order both ways: newest extracted first unless asked. */
const ejOrderings = ejOrderFields.flatMap((field) => [field, `-${field}`] as const);

const exportNames = { dispute: exportFiles.ejError, overage: exportFiles.overage, succeeding: exportFiles.succeeding };

export const extractRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.ctx;

  app.get(
    '/extract/email/data/pagination/',
    { schema: { querystring: EjTableQuery, response: { 200: Paginated(EjRecord), ...errorResponses } } },
    async (request, reply) => {
      const ordering = parseOrdering<EjOrder['field']>(request.query.ordering, ejOrderings, '-id');
      if ('detail' in ordering) return reply.code(400).send(ordering);
      const page = pageOf(request.query);
      return sendPage(request, reply, page, await listEjRecords(db, filtersOf('dispute', request.query), page, ordering));
    },
  );

  for (const kind of ['overage', 'succeeding'] as const) {
    app.get(
      `/extract/${kind}/data/`,
      { schema: { querystring: EmptyQuery, response: { 200: Type.Array(EjFileRecord), ...errorResponses } } },
      async (_request, reply) => reply.type('application/json; charset=utf-8').send(streamed(await ejJsonArrayStream(db, { kind }))),
    );
  }

  // GET /api/scrape/extract/export/?format=csv|xlsx&kind=dispute|overage|succeeding&<the table's filters>
  // 499 (nginx's "client closed request") is only ever logged: nobody is left to read it.
  const exportAnswers = { 200: FileAnswer('text/csv', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'), ...errorResponses, 499: Detail };
  app.get('/extract/export/', { schema: { querystring: EjExportQuery, response: exportAnswers } }, async (request, reply) => {
    // At most config.exportConcurrency at once: each holds a connection per batch and a core.
    const { exports, config, metrics } = app.ctx;
    if (exports.inFlight >= config.exportConcurrency) {
      metrics.exportsRefused.inc();
      return reply.code(429).header('retry-after', '10').send({ detail: 'Too many exports are running; try again in a moment.' });
    }
    exports.inFlight++;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      exports.inFlight--;
    };
    // The slot is freed when the response ends, however it ends (done, failed, client gone). A
    // client may also have left while the request waited (authentication, the first batch):
    // then nothing more is done.
    reply.raw.once('close', release);
    const gone = () => request.raw.destroyed || !!request.raw.socket?.destroyed;
    const abandon = (stream?: Readable) => {
      stream?.destroy();
      release();
      return reply.code(499).send({ detail: 'The client closed the request.' });
    };
    if (gone()) return abandon();
    try {
      const kind = request.query.kind ?? 'dispute';
      const filters = filtersOf(kind, request.query);
      const names = exportNames[kind];
      const csv = request.query.format === 'csv';
      const stream = csv ? await ejCsvStream(db, filters) : await ejXlsxStream(db, filters, names.sheet);
      if (gone()) return abandon(stream);
      return reply
        .type(csv ? 'text/csv; charset=utf-8' : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('content-disposition', `attachment; filename="${csv ? names.csv : names.xlsx}"`)
        .send(streamed(stream));
    } catch (error) {
      release();
      throw error;
    }
  });
};
