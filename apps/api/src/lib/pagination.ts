// DRF-style page-number pagination shared by every list: {count, total_pages, next, previous, results}.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Counting, exactCounting, type Page, type PageOf } from '@ejdesk/db';

const defaultPageSize = 10;

export function pageOf(query: { page?: number | 'last' | undefined; page_size?: number | undefined }): Page {
  return { page: query.page === 'last' ? 1 : (query.page ?? 1), pageSize: query.page_size ?? defaultPageSize };
}

/**
 * The page asked of a list whose count may be an estimate (`list` counts as `counting` says: the
 * setting's bound, or exactly). `page=last` counts exactly, then answers the last page by its
 * number: the count cache (counts.ts) keeps the exact count between the two.
 */
export async function estimatedPage<Row>(
  query: { page?: number | 'last' | undefined; page_size?: number | undefined },
  upTo: number,
  list: (page: Page, counting: Counting) => Promise<PageOf<Row>>,
): Promise<{ page: Page; result: PageOf<Row> }> {
  const page = pageOf(query);
  if (query.page !== 'last') return { page, result: await list(page, { upTo }) };
  const first = await list(page, exactCounting);
  const last = { ...page, page: Math.max(1, Math.ceil(first.count / page.pageSize)) };
  return { page: last, result: last.page === 1 ? first : await list(last, exactCounting) };
}

function pageLink(request: FastifyRequest, page: number): string {
  const url = new URL(request.url, 'http://local');
  url.searchParams.set('page', String(page));
  return `${url.pathname}${url.search}`;
}

/**
 * The page as the API sends it, or 404 "Invalid page." past the end (page 1 always exists). Under
 * an estimated count the end is where the rows end: a page past the estimate that still has rows
 * is answered, a full page links to the next, a short one is the last.
 */
export function sendPage<Row>(request: FastifyRequest, reply: FastifyReply, page: Page, result: PageOf<Row>) {
  const exact = result.exact ?? true;
  const estimated = Math.max(1, Math.ceil(result.count / page.pageSize));
  const totalPages = exact ? estimated : result.rows.length < page.pageSize ? page.page : Math.max(estimated, page.page + 1);
  if (exact ? page.page > totalPages : page.page > 1 && result.rows.length === 0) return reply.code(404).send({ detail: 'Invalid page.' });
  const more = exact ? page.page < totalPages : result.rows.length === page.pageSize;
  return reply.send({
    count: result.count,
    count_exact: exact,
    page: page.page,
    total_pages: totalPages,
    next: more ? pageLink(request, page.page + 1) : null,
    previous: page.page > 1 ? pageLink(request, page.page - 1) : null,
    results: result.rows,
  });
}
