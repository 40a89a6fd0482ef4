// /api/scrape/email/* and /api/scrape/ejs/*: email monitoring (the dashboard, the email lists and
// details; docs/api.md).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { emailListPaths, underScrape } from '@ejdesk/contract';
import { dashboardCounts, findEmailDetails, findEmailJsonData, listEmailJsonData, listEmails, type EmailOrder, type EmailSelection } from '@ejdesk/db';
import { monthProblem, monthRange } from '../../lib/months.ts';
import { parseOrdering } from '../../lib/ordering.ts';
import { estimatedPage, sendPage } from '../../lib/pagination.ts';
import { IdParams } from '@ejdesk/contract/schemas/admin.ts';
import { errorResponses } from '@ejdesk/contract/schemas/common.ts';
import {
  AllEmailQuery,
  CategoryQuery,
  DashboardCounts,
  DashboardQuery,
  EmailDetails,
  EmailJsonItem,
  EmailListRow,
  JsonDataQuery,
} from '@ejdesk/contract/schemas/emails.ts';
import { Paginated } from '@ejdesk/contract/schemas/lists.ts';

export { producedRoutes } from './produced.ts';

/** The orders the email lists' indexes serve: by creation time, either way (ties by id). */
const emailOrderings = ['-create_at', 'create_at', '-update_at', 'update_at'] as const;
/** The API's ordering as the query names it: creation either way, or the last update. */
const emailOrder = (o: { field: 'create_at' | 'update_at'; descending: boolean }): EmailOrder =>
  o.field === 'update_at' ? { field: 'update_at', descending: o.descending } : o.descending ? 'newest' : 'oldest';

/** The seven category lists differ only in which emails they select. */
export const categoryLists: [path: string, selection: EmailSelection][] = [
  [underScrape(emailListPaths.ej_not_found), { category: 'ej_not_found' }],
  [underScrape(emailListPaths.ignored), { category: 'ignored' }],
  [underScrape(emailListPaths.read), { isRead: true }],
  [underScrape(emailListPaths.same_subject), { category: 'same_subject' }],
  [underScrape(emailListPaths.same_subject_processing), { category: 'same_subject_processing' }],
  [underScrape(emailListPaths.unread), { isRead: false }],
  [underScrape(emailListPaths.total), 'all'],
];

export const emailRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, config } = app.ctx;
  const EmailPage = Paginated(EmailListRow);

  app.get(
    '/email/dashboard/count/',
    { config: { credential: 'user' }, schema: { querystring: DashboardQuery, response: { 200: DashboardCounts, ...errorResponses } } },
    async (request, reply) => {
      const range = monthRange(request.query.date);
      if (!range) return reply.code(400).send({ detail: monthProblem('date') });
      return dashboardCounts(db, range.from, range.to);
    },
  );

  app.get(
    underScrape(emailListPaths.all),
    { config: { credential: 'user' }, schema: { querystring: AllEmailQuery, response: { 200: EmailPage, ...errorResponses } } },
    async (request, reply) => {
      const q = request.query;
      const receivedIn = q.month === undefined ? undefined : monthRange(q.month);
      if (receivedIn === null) return reply.code(400).send({ detail: monthProblem('month') });
      const ordering = parseOrdering<'create_at' | 'update_at'>(q.ordering, emailOrderings, '-create_at');
      if ('detail' in ordering) return reply.code(400).send(ordering);
      const filters = {
        selection: 'all',
        subject: q.subject_name,
        emailFrom: q.email_from,
        createdFrom: q.create_at_after,
        createdTo: q.create_at_before,
        receivedIn,
      } as const;
      const { page, result } = await estimatedPage(q, config.exactCountUpTo, (p, counting) =>
        listEmails(db, { ...filters, counting }, p, emailOrder(ordering)),
      );
      return sendPage(request, reply, page, result);
    },
  );

  for (const [path, selection] of categoryLists) {
    app.get(
      path,
      { config: { credential: 'user' }, schema: { querystring: CategoryQuery, response: { 200: EmailPage, ...errorResponses } } },
      async (request, reply) => {
        const q = request.query;
        const receivedIn = q.month === undefined ? undefined : monthRange(q.month);
        if (receivedIn === null) return reply.code(400).send({ detail: monthProblem('month') });
        const ordering = parseOrdering<'create_at' | 'update_at'>(q.ordering, emailOrderings, '-create_at');
        if ('detail' in ordering) return reply.code(400).send(ordering);
        const filters = { selection, subject: q.subject, createdFrom: q.date, createdTo: q.date, receivedIn };
        const { page, result } = await estimatedPage(q, config.exactCountUpTo, (p, counting) =>
          listEmails(db, { ...filters, counting }, p, emailOrder(ordering)),
        );
        return sendPage(request, reply, page, result);
      },
    );
  }

  app.get(
    '/email/to/json/data/',
    { config: { credential: 'user' }, schema: { querystring: JsonDataQuery, response: { 200: Type.Array(EmailJsonItem), ...errorResponses } } },
    async (request) => listEmailJsonData(db, request.query.limit ?? 1000),
  );

  app.get(
    '/email/to/json/data/:id/',
    { config: { credential: 'user' }, schema: { params: IdParams, response: { 200: Type.Array(EmailJsonItem), ...errorResponses } } },
    async (request, reply) => {
      const item = await findEmailJsonData(db, request.params.id);
      return item ? [item] : reply.code(404).send({ detail: 'Not found.' });
    },
  );

  app.get(
    '/email/body/html/text/data/:id/',
    { config: { credential: 'user' }, schema: { params: IdParams, response: { 200: EmailDetails, ...errorResponses } } },
    async (request, reply) => {
      const email = await findEmailDetails(db, request.params.id);
      return email ?? reply.code(404).send({ detail: 'Not found.' });
    },
  );
};
