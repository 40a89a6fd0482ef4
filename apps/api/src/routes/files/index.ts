// /api/scrape/{text,excel,pdf,other}/...: the data files (docs/api.md): one route factory for all seven kinds; the kinds
// differ only in their paths and in the key that carries the rows.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { fileKindPaths, underScrape } from '@ejdesk/contract';
import { dataFileOrderFields, findDataFileWithLabelledRows, listAllDataFiles, listDataFiles, type DataFileKind, type DataFileOrder } from '@ejdesk/db';
import { parseOrdering } from '../../lib/ordering.ts';
import { estimatedPage, sendPage } from '../../lib/pagination.ts';
import { IdParams } from '@ejdesk/contract/schemas/admin.ts';
import { errorResponses } from '@ejdesk/contract/schemas/common.ts';
import { DataFile, DataFileDetail, DataFileQuery, ListedDataFile } from '@ejdesk/contract/schemas/files.ts';
import { Paginated } from '@ejdesk/contract/schemas/lists.ts';
import { EmptyQuery } from '@ejdesk/contract/schemas/ej-records.ts';

/** The orders the (kind, create_at, id) index serves. */
const fileOrderings = dataFileOrderFields.flatMap((field) => [`-${field}`, field] as const);

interface KindRoutes {
  kind: DataFileKind;
  base: string;
  rowsKey: string;
  responseKey: 'Response Code' | 'Response';
  paginated: boolean;
}

export const fileKinds: KindRoutes[] = [
  { kind: 'text', base: underScrape(fileKindPaths.text), rowsKey: 'text_data', responseKey: 'Response Code', paginated: true },
  { kind: 'missing', base: underScrape(fileKindPaths.missing), rowsKey: 'text_data', responseKey: 'Response Code', paginated: true },
  { kind: 'missing_txn', base: underScrape(fileKindPaths.missing_txn), rowsKey: 'text_data', responseKey: 'Response Code', paginated: true },
  { kind: 'between_successful', base: underScrape(fileKindPaths.between_successful), rowsKey: 'text_data', responseKey: 'Response Code', paginated: true },
  { kind: 'excel', base: underScrape(fileKindPaths.excel), rowsKey: 'excel_data', responseKey: 'Response', paginated: false },
  { kind: 'pdf', base: underScrape(fileKindPaths.pdf), rowsKey: 'pdf_data', responseKey: 'Response', paginated: false },
  { kind: 'other', base: underScrape(fileKindPaths.other), rowsKey: 'other_format_data', responseKey: 'Response', paginated: false },
];

export const fileRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, config } = app.ctx;

  for (const { kind, base, rowsKey, responseKey, paginated } of fileKinds) {
    if (paginated) {
      app.get(
        `${base}/pagination/`,
        { config: { credential: 'user' }, schema: { querystring: DataFileQuery, response: { 200: Paginated(DataFile), ...errorResponses } } },
        async (request, reply) => {
          const q = request.query;
          const filters = { name: q.name, subjectName: q.subject_name, createdFrom: q.create_at_after, createdTo: q.create_at_before };
          const ordering = parseOrdering<DataFileOrder['field']>(q.ordering, fileOrderings, '-create_at');
          if ('detail' in ordering) return reply.code(400).send(ordering);
          const { page, result } = await estimatedPage(q, config.exactCountUpTo, (p, counting) =>
            listDataFiles(db, kind, { ...filters, counting }, p, ordering),
          );
          return sendPage(request, reply, page, result);
        },
      );
    } else {
      app.get(
        `${base}/`,
        { config: { credential: 'user' }, schema: { querystring: EmptyQuery, response: { 200: Type.Array(ListedDataFile), ...errorResponses } } },
        async () => listAllDataFiles(db, kind),
      );
    }
    // Details answer with and without the trailing slash (the original client asks for the text ones without).
    for (const path of [`${base}/:id`, `${base}/:id/`]) {
      app.get(
        path,
        {
          config: { credential: 'user' },
          schema: { params: IdParams, querystring: EmptyQuery, response: { 200: DataFileDetail(rowsKey, responseKey), ...errorResponses } },
        },
        async (request, reply) => {
          const found = await findDataFileWithLabelledRows(db, kind, request.params.id, responseKey);
          if (!found) return reply.code(404).send({ detail: 'Not found.' });
          // The rows arrive as JSON text from the database; only the file's own fields are encoded here.
          const head = JSON.stringify(found.file).slice(0, -1);
          return reply.type('application/json; charset=utf-8').send(`${head},${JSON.stringify(rowsKey)}:${found.rowsJson}}` as never);
        },
      );
    }
  }
};
