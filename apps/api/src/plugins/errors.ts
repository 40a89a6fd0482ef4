// Every error leaves the API as {"detail": "..."}; bad input is a 4xx that names the field, never a 500.
import type { FastifyError, FastifyInstance } from 'fastify';

interface ValidationIssue {
  instancePath: string;
  keyword: string;
  message?: string | undefined;
  params: Record<string, unknown>;
}

const partNames: Record<string, string> = { body: 'body', querystring: 'query', params: 'path', headers: 'header' };

export function describeValidation(context: string | undefined, issue: ValidationIssue): string {
  const where = partNames[context ?? ''] ?? 'request';
  const field = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
  if (issue.keyword === 'required') return `${where}: '${String(issue.params.missingProperty)}' is required.`;
  if (issue.keyword === 'additionalProperties') {
    return `${where}: unknown field '${String(issue.params.additionalProperty)}'.`;
  }
  if (issue.keyword === 'format' && issue.params.format === 'date') return `${where} '${field}': must be a date as YYYY-MM-DD.`;
  if (issue.keyword === 'type' && issue.params.type === 'integer') return `${where} '${field}': must be a whole number.`;
  return `${where}${field ? ` '${field}'` : ''}: ${issue.message ?? 'is invalid'}.`;
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error.validation?.[0]) {
      return reply.code(400).send({ detail: describeValidation(error.validationContext, error.validation[0]) });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return reply.code(status).send({ detail: error.message });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.code(500).send({ detail: 'Internal server error.' });
  });
  app.setNotFoundHandler((_request, reply) => reply.code(404).send({ detail: 'Not found.' }));
}
