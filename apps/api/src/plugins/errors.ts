// Every error leaves the API as {"detail": "..."}; bad input is a 4xx that names the field, never a
// 500; a database that cannot be reached is a 503 with Retry-After, never a 500.
import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { isDatabaseUnavailable, isStatementTimeout } from '@ejdesk/db';
import { patternWords } from '@ejdesk/contract/schemas/pattern-words.ts';

interface ValidationIssue {
  instancePath: string;
  keyword: string;
  message?: string | undefined;
  params: Record<string, unknown>;
}

const partNames: Record<string, string> = { body: 'body', querystring: 'query', params: 'path', headers: 'header' };

function describeValidation(context: string | undefined, issue: ValidationIssue): string {
  const where = partNames[context ?? ''] ?? 'request';
  const field = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
  if (issue.keyword === 'required') return `${where}: '${String(issue.params.missingProperty)}' is required.`;
  if (issue.keyword === 'additionalProperties') {
    return `${where}: unknown field '${String(issue.params.additionalProperty)}'.`;
  }
  if (issue.keyword === 'format' && issue.params.format === 'date') {
    return `${where} '${field}': must be a date as YYYY-MM-DD, from 0001-01-01 to 9998-12-31.`;
  }
  if (issue.keyword === 'type' && issue.params.type === 'integer') return `${where} '${field}': must be a whole number.`;
  // Lengths and patterns in words, not in the validator's terms.
  const limit = Number(issue.params.limit);
  if (issue.keyword === 'minLength') return `${where} '${field}': ${limit === 1 ? 'cannot be empty' : `must be at least ${limit} characters`}.`;
  if (issue.keyword === 'maxLength') return `${where} '${field}': can be at most ${limit} characters.`;
  if (issue.keyword === 'pattern') {
    const words = patternWords[String(issue.params.pattern)];
    return `${where} '${field}': ${words ?? 'is not in the form asked for'}.`;
  }
  // A word of a list (a verdict, an anomaly kind): the words it may be.
  if (issue.keyword === 'enum' && Array.isArray(issue.params.allowedValues)) {
    return `${where} '${field}': must be one of ${issue.params.allowedValues.map(String).join(', ')}.`;
  }
  return `${where}${field ? ` '${field}'` : ''}: ${issue.message ?? 'is invalid'}.`;
}

export const unavailableDetail = 'The database is unavailable; try again.';

export function databaseUnavailable(reply: FastifyReply) {
  return reply.code(503).header('retry-after', '5').send({ detail: unavailableDetail });
}

/** Body parsers' failures (multipart, JSON, urlencoded) that carry no status of their own. */
const malformedBody =
  /Unexpected end of (form|multipart data)|Malformed part header|Multipart: Boundary not found|boundary|Part terminated early|Unexpected end of JSON|in JSON at position/i;

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error.validation?.[0]) {
      const detail = describeValidation(error.validationContext, error.validation[0]);
      request.log.warn({ statusCode: 400, detail }, 'client error');
      return reply.code(400).send({ detail });
    }
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ reason: error.message }, 'database unavailable');
      return databaseUnavailable(reply);
    }
    if (isStatementTimeout(error)) {
      request.log.warn({ reason: error.message }, 'statement timeout');
      return reply.code(503).header('retry-after', '5').send({ detail: 'The database took too long to answer; try again.' });
    }
    let status = error.statusCode ?? 500;
    if (status >= 500 && !reply.sent && malformedBody.test(error.message ?? '')) status = 400;
    if (status >= 400 && status < 500) {
      // A client's mistake: one line at warn, no stack (a flood of bad requests must not flood the log).
      const detail = status === 400 && !error.statusCode ? `body: could not be read (${error.message}).` : error.message;
      request.log.warn({ statusCode: status, detail }, 'client error');
      return reply.code(status).send({ detail });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.code(500).send({ detail: 'Internal server error.' });
  });
  app.setNotFoundHandler((_request, reply) => reply.code(404).send({ detail: 'Not found.' }));

  // The last line of the contract: a 4xx or 5xx written by a plugin as plain text (CORS's preflight,
  // the proxy) still leaves as {"detail"}.
  app.addHook('onSend', async (_request, reply, payload) => {
    if (reply.statusCode < 400) return payload;
    const type = String(reply.getHeader('content-type') ?? '');
    const text = typeof payload === 'string' ? payload.trim() : '';
    if (type.includes('application/json')) {
      // Fastify's own errors (e.g. a path parameter over maxParamLength) are JSON without a detail.
      const parsed = (() => {
        try {
          return JSON.parse(text) as { detail?: unknown; message?: unknown };
        } catch {
          return undefined;
        }
      })();
      if (!parsed || typeof parsed.detail === 'string') return payload;
      const message = typeof parsed.message === 'string' && parsed.message.length < 200 ? parsed.message : STATUS_CODES[reply.statusCode];
      return JSON.stringify({ detail: message ?? 'Error' });
    }
    reply.header('content-type', 'application/json; charset=utf-8');
    return JSON.stringify({ detail: text && text.length < 300 ? text : (STATUS_CODES[reply.statusCode] ?? 'Error') });
  });
}
