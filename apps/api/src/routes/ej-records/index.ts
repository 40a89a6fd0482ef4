// /api/scrape/extract/*: the EJ records (the EJ error table with each dispute's clock, overage and
// succeeding; docs/api.md) and their streamed export.
import type { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { clocksOfRecords, dayIn, disputeOrderFields, listEjRecords, verdictsOfRecords, type EjOrder } from '@ejdesk/db';
import { exportFileName, exportFiles } from '@ejdesk/export/server';
import { ejCsvStream, ejJsonArrayStream, ejXlsxStream } from '../../lib/ej-export.ts';
import { clockFiltersProblem, ejFiltersOf } from '../../lib/ej-filters.ts';
import { parseOrdering } from '../../lib/ordering.ts';
import { estimatedPage, sendPage } from '../../lib/pagination.ts';
import { Detail, errorResponses, FileAnswer } from '@ejdesk/contract/schemas/common.ts';
import { DisputeRecord } from '@ejdesk/contract/schemas/disputes.ts';
import { EjExportQuery, EjFileRecord, EjTableQuery, EmptyQuery } from '@ejdesk/contract/schemas/ej-records.ts';
import { Paginated } from '@ejdesk/contract/schemas/lists.ts';
import type { Verdict } from '@ejdesk/contract';

/** Fastify sends a stream as it is; the route's schema still documents what the stream holds. */
const streamed = (stream: Readable) => stream as never;

/** Each order both ways (the clock's too): newest extracted first unless asked. */
const ejOrderings = [...disputeOrderFields, 'days_late' as const].flatMap((field) => [field, `-${field}`] as const);

/** The quick filters whose disputes are all open (their days late still counting). */
const openOnly = (tat: string | undefined) => tat === 'open' || tat === 'breached' || tat === 'due_today' || tat === 'due_soon';

/** Days late is the due date read the other way: the most days late have the earliest due date. */
const byDueDate = (order: { field: EjOrder['field'] | 'days_late'; descending: boolean }): EjOrder =>
  order.field === 'days_late' ? { field: 'due_date', descending: !order.descending } : { field: order.field, descending: order.descending };

/** A record no dispute holds yet (linked as its message is saved): open, with no clock. */
const noClock = {
  dispute_id: null,
  status: 'open',
  outcome: null,
  due_date: null,
  age_days: null,
  overdue_days: 0,
  penalty: '0.00',
  currency: '',
  due_today: false,
  owner_id: null,
  owner: null,
  follow_up_on: null,
  next_deadline: null,
  next_clock: null,
} as const;

/** A record whose dispute has matched no journal transaction yet. */
const noVerdict = { verdict: null, dispensed_amount: null } as const;

const exportNames = { dispute: exportFiles.ejError, overage: exportFiles.overage, succeeding: exportFiles.succeeding };

export const ejRecordRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, config } = app.ctx;
  const today = () => dayIn(config.clockTimeZone);

  app.get(
    '/extract/email/data/pagination/',
    { config: { credential: 'user' }, schema: { querystring: EjTableQuery, response: { 200: Paginated(DisputeRecord), ...errorResponses } } },
    async (request, reply) => {
      const asked = parseOrdering<EjOrder['field'] | 'days_late'>(request.query.ordering, ejOrderings, '-id');
      if ('detail' in asked) return reply.code(400).send(asked);
      // A resolved dispute's days late stopped with its clock: the due date orders them only among open ones.
      if (asked.field === 'days_late' && !openOnly(request.query.tat)) {
        return reply.code(400).send({ detail: "query 'ordering': days_late orders open disputes: add tat=open, breached, due_today or due_soon." });
      }
      const ordering = byDueDate(asked);
      const day = today();
      const filters = ejFiltersOf('dispute', request.query, day, request.user!.id);
      const { page, result: found } = await estimatedPage(request.query, config.exactCountUpTo, (p, counting) =>
        listEjRecords(db, { ...filters, counting }, p, ordering),
      );
      // Each record with its dispute's clock and journal verdict (a page's worth, by the records' ids).
      const ids = found.rows.map((r) => r.id);
      const [clocks, verdicts] = await Promise.all([clocksOfRecords(db, ids, day), verdictsOfRecords(db, ids)]);
      const rows = found.rows.map((r) => {
        const evidence = verdicts.get(r.id);
        return {
          ...r,
          ...(clocks.get(r.id) ?? noClock),
          ...(evidence ? { verdict: evidence.verdict as Verdict | null, dispensed_amount: evidence.dispensed_amount } : noVerdict),
        };
      });
      return sendPage(request, reply, page, { count: found.count, exact: found.exact, rows });
    },
  );

  for (const kind of ['overage', 'succeeding'] as const) {
    app.get(
      `/extract/${kind}/data/`,
      { config: { credential: 'user' }, schema: { querystring: EmptyQuery, response: { 200: Type.Array(EjFileRecord), ...errorResponses } } },
      async (_request, reply) => reply.type('application/json; charset=utf-8').send(streamed(await ejJsonArrayStream(db, { kind }))),
    );
  }

  // GET /api/scrape/extract/export/?format=csv|xlsx&kind=dispute|overage|succeeding&<the table's filters>
  // 499 (nginx's "client closed request") is only ever logged: nobody is left to read it.
  const exportAnswers = { 200: FileAnswer('text/csv', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'), ...errorResponses, 499: Detail };
  app.get('/extract/export/', { config: { credential: 'user' }, schema: { querystring: EjExportQuery, response: exportAnswers } }, async (request, reply) => {
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
      const problem = clockFiltersProblem(kind, request.query);
      if (problem) {
        release();
        return reply.code(400).send({ detail: problem });
      }
      const ticked = request.query.disputes?.split(',').map(Number);
      if (ticked && kind !== 'dispute') {
        release();
        return reply.code(400).send({ detail: `query 'disputes': only dispute records belong to disputes, not ${kind} records.` });
      }
      const filters = { ...ejFiltersOf(kind, request.query, today(), request.user!.id), disputeIds: ticked };
      const names = exportNames[kind];
      const csv = request.query.format === 'csv';
      const fileName = exportFileName(csv ? names.csv : names.xlsx, request.query, ticked ? new Set(ticked).size : undefined);
      const stream = csv ? await ejCsvStream(db, filters) : await ejXlsxStream(db, filters, names.sheet);
      if (gone()) return abandon(stream);
      return reply
        .type(csv ? 'text/csv; charset=utf-8' : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .send(streamed(stream));
    } catch (error) {
      release();
      throw error;
    }
  });
};
