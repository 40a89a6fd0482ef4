// File data (SPEC.md section 7, "File-based data"): one route factory for all seven kinds; the kinds
// differ only in their paths and in the key that carries the rows.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { findDataFile, listAllDataFiles, listDataFiles, type DataFileKind, type DataFileRowRecord } from '@ejdesk/db';
import { pageOf, sendPage } from '../../lib/pagination.ts';
import { IdParams } from '../../schemas/admin.ts';
import { errorResponses } from '../../schemas/common.ts';
import { DataFile, DataFileDetail, DataFileQuery, labelledKeys, ListedDataFile } from '../../schemas/files.ts';
import { Paginated } from '../../schemas/lists.ts';
import { EmptyQuery } from '../../schemas/ej-records.ts';

interface KindRoutes {
  kind: DataFileKind;
  base: string;
  rowsKey: string;
  responseKey: string;
  paginated: boolean;
}

export const fileKinds: KindRoutes[] = [
  { kind: 'text', base: '/text/email/data', rowsKey: 'text_data', responseKey: 'Response Code', paginated: true },
  { kind: 'missing', base: '/text/missing/data', rowsKey: 'text_data', responseKey: 'Response Code', paginated: true },
  { kind: 'missing_txn', base: '/text/missing/txn/data', rowsKey: 'text_data', responseKey: 'Response Code', paginated: true },
  { kind: 'between_successful', base: '/text/successful/between/data', rowsKey: 'text_data', responseKey: 'Response Code', paginated: true },
  { kind: 'excel', base: '/excel/email/data', rowsKey: 'excel_data', responseKey: 'Response', paginated: false },
  { kind: 'pdf', base: '/pdf/email/data', rowsKey: 'pdf_data', responseKey: 'Response', paginated: false },
  { kind: 'other', base: '/other/email/data', rowsKey: 'other_format_data', responseKey: 'Response', paginated: false },
];

/** DD/MM/YY, as the labelled keys promise. */
const shortDate = (iso: string | null) => (iso ? `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(2, 4)}` : null);

function labelled(row: DataFileRowRecord, responseKey: string): Record<string, unknown> {
  const values = [
    row.id, row.atmId, row.cardNo, row.txtNo, shortDate(row.txtDate), row.txtAmt, row.disputeAmt, row.overage, row.mspRemarks,
    row.mspRefNo, row.shortDesc, row.ejError, shortDate(row.complaintDate), row.shortDescription, row.mailReceivedFrom, row.mailSubject,
  ];
  return { ...Object.fromEntries(labelledKeys.map((key, i) => [key, values[i]])), [responseKey]: row.responseCode };
}

export const fileRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.ctx;

  for (const { kind, base, rowsKey, responseKey, paginated } of fileKinds) {
    if (paginated) {
      app.get(
        `${base}/pagination/`,
        { schema: { querystring: DataFileQuery, response: { 200: Paginated(DataFile), ...errorResponses } } },
        async (request, reply) => {
          const q = request.query;
          const page = pageOf(q);
          const filters = { name: q.name, subjectName: q.subject_name, createdFrom: q.create_at_after, createdTo: q.create_at_before };
          return sendPage(request, reply, page, await listDataFiles(db, kind, filters, page));
        },
      );
    } else {
      app.get(
        `${base}/`,
        { schema: { querystring: EmptyQuery, response: { 200: Type.Array(ListedDataFile), ...errorResponses } } },
        async () => listAllDataFiles(db, kind),
      );
    }
    // Details answer with and without the trailing slash (SPEC.md names the text ones without).
    for (const path of [`${base}/:id`, `${base}/:id/`]) {
      app.get(
        path,
        { schema: { params: IdParams, querystring: EmptyQuery, response: { 200: DataFileDetail(rowsKey, responseKey), ...errorResponses } } },
        async (request, reply) => {
          const found = await findDataFile(db, kind, request.params.id);
          if (!found) return reply.code(404).send({ detail: 'Not found.' });
          return { ...found.file, [rowsKey]: found.rows.map((row) => labelled(row, responseKey)) };
        },
      );
    }
  }
};
