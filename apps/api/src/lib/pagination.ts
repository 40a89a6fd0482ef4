// DRF-style page-number pagination shared by every list: {count, total_pages, next, previous, results}.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Page, PageOf } from '@ejdesk/db';

const defaultPageSize = 10;

export function pageOf(query: { page?: number | undefined; page_size?: number | undefined }): Page {
  return { page: query.page ?? 1, pageSize: query.page_size ?? defaultPageSize };
}

function pageLink(request: FastifyRequest, page: number): string {
  const url = new URL(request.url, 'http://local');
  url.searchParams.set('page', String(page));
  return `${url.pathname}${url.search}`;
}

/** The page as the API sends it, or 404 "Invalid page." past the end (page 1 always exists). */
export function sendPage<Row>(request: FastifyRequest, reply: FastifyReply, page: Page, result: PageOf<Row>) {
  const totalPages = Math.max(1, Math.ceil(result.count / page.pageSize));
  if (page.page > totalPages) return reply.code(404).send({ detail: 'Invalid page.' });
  return reply.send({
    count: result.count,
    total_pages: totalPages,
    next: page.page < totalPages ? pageLink(request, page.page + 1) : null,
    previous: page.page > 1 ? pageLink(request, page.page - 1) : null,
    results: result.rows,
  });
}
