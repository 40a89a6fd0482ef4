// GET /api/metrics: the figures plugins/metrics.ts keeps, in the Prometheus text format, to the
// metrics token (or, without one configured, on the API's own port only).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Detail, FileAnswer } from '@ejdesk/contract/schemas/common.ts';

export const metricsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { registry } = app.ctx.metrics;
  for (const url of ['/api/metrics', '/api/metrics/']) {
    app.get(
      url,
      { logLevel: 'warn', config: { credential: 'metrics' }, schema: { response: { 200: FileAnswer('text/plain'), 401: Detail, 404: Detail } } },
      async (_request, reply) => reply.type(registry.contentType).send(await registry.metrics()),
    );
  }
};
