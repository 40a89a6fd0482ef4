// /api/journals/: the electronic journals received (any signed-in user): the list with its filters,
// one journal with its transactions, a range of its lines as received, and an upload (multipart
// `file`). A journal is known by its content, never its name: a file no family reads is refused
// with nothing stored; the same file again answers the journal stored first.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { journalDetail, journalLines, listJournals, receiveJournal, type JournalRow } from '@ejdesk/db';
import { Detail, errorResponses } from '@ejdesk/contract/schemas/common.ts';
import {
  JournalDetail,
  JournalIdParams,
  JournalItem,
  JournalLines,
  JournalLinesQuery,
  JournalListQuery,
  JournalUpload,
  maxLinesAsked,
} from '@ejdesk/contract/schemas/journals.ts';
import { Paginated } from '@ejdesk/contract/schemas/lists.ts';
import { estimatedPage, sendPage } from '../../lib/pagination.ts';
import { journalOf, transactionOf, uploadedOf } from './wire.ts';

/** Lines answered when the range's end is not given. */
const defaultLines = 1000;

export const journalRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, config } = app.ctx;

  app.get(
    '/',
    { config: { credential: 'user' }, schema: { querystring: JournalListQuery, response: { 200: Paginated(JournalItem), ...errorResponses } } },
    async (request, reply) => {
      const q = request.query;
      if (q.day_from && q.day_to && q.day_from > q.day_to) return reply.code(400).send({ detail: 'query: day_from must not be after day_to.' });
      const filters = {
        atmId: q.atm_id?.trim() || undefined,
        day: q.day,
        dayFrom: q.day_from,
        dayTo: q.day_to,
        anomaly: q.anomaly,
        family: q.family?.trim().toLowerCase() || undefined,
      };
      const { page, result: found } = await estimatedPage(q, config.exactCountUpTo, (p, counting) => listJournals(db, { ...p, ...filters, counting }));
      return sendPage(request, reply, page, { count: found.count, exact: found.exact, rows: found.rows.map((row: JournalRow) => journalOf(row)) });
    },
  );

  app.get(
    '/:id/',
    { config: { credential: 'user' }, schema: { params: JournalIdParams, response: { 200: JournalDetail, ...errorResponses } } },
    async (request, reply) => {
      const found = await journalDetail(db, request.params.id);
      if (!found) return reply.code(404).send({ detail: 'Not found.' });
      return {
        ...journalOf(found.journal),
        anomalies: found.journal.anomalies as never,
        transactions: found.transactions.map(transactionOf),
        counters: found.counters as never,
      };
    },
  );

  app.get(
    '/:id/lines/',
    {
      config: { credential: 'user' },
      schema: { params: JournalIdParams, querystring: JournalLinesQuery, response: { 200: JournalLines, ...errorResponses } },
    },
    async (request, reply) => {
      const from = request.query.from ?? 1;
      const to = request.query.to ?? from + defaultLines - 1;
      if (to < from) return reply.code(400).send({ detail: 'query: to must not be before from.' });
      if (to - from + 1 > maxLinesAsked)
        return reply.code(400).send({ detail: `query: at most ${maxLinesAsked} lines at once (from ${from} to ${from + maxLinesAsked - 1}).` });
      const found = await journalLines(db, request.params.id, from, to);
      if (!found) return reply.code(404).send({ detail: 'Not found.' });
      return {
        journal_id: request.params.id,
        from: found.from,
        to: found.to,
        line_count: found.total,
        lines: found.lines.map((line) => ({ number: line.no, text: line.text })),
      };
    },
  );

  // A journal stored again is harmless (the same SHA-256 answers the first): no write transaction is
  // held while a large file is parsed.
  app.post(
    '/',
    {
      config: {
        credential: 'user',
        idempotency: 'repeatable',
        multipartOptions: { limits: { files: 1, fileSize: config.journalUploadMaxBytes } },
      },
      schema: {
        consumes: ['multipart/form-data'],
        body: {
          type: 'object',
          properties: { file: { type: 'string', format: 'binary', description: 'The journal file as the ATM wrote it (any name, any charset).' } },
          required: ['file'],
        },
        response: { 200: JournalUpload, 201: JournalUpload, ...errorResponses, 413: Detail },
      },
      // The file arrives as bytes, which a JSON schema cannot describe: the handler judges it.
      validatorCompiler: () => () => true,
      // Larger than the limit by its declared length: refused before a byte of it is read.
      onRequest: async (request, reply) => {
        const length = Number(request.headers['content-length'] ?? 0);
        if (length > config.journalUploadMaxBytes + 64 * 1024) return reply.code(413).send({ detail: tooLarge(config.journalUploadMaxBytes) });
      },
    },
    async (request, reply) => {
      const file = (request.body as { file?: unknown } | undefined)?.file;
      const upload = request.uploads.get('file');
      if (!(file instanceof Uint8Array) || !upload)
        return reply.code(400).send({ detail: "body: 'file' is required: the journal, sent as multipart/form-data." });
      const fileName = upload.fileName.split(/[\\/]/).pop()?.trim() || 'journal';
      if (file.length === 0) return reply.code(400).send({ detail: `${fileName} is not a journal: the file is empty.` });
      const received = await receiveJournal(db, { bytes: file, fileName, source: 'upload', uploadedBy: request.user!.id });
      if ('notJournal' in received) return reply.code(400).send({ detail: `${fileName} is not a journal: ${received.notJournal}` });
      return reply.code(received.created ? 201 : 200).send({ created: received.created, journal: uploadedOf(received.journal) });
    },
  );
};

const tooLarge = (limit: number) => `The file is larger than ${Math.round(limit / 1024 / 1024)} MB, the most a journal upload takes (JOURNAL_UPLOAD_MAX_MB).`;
