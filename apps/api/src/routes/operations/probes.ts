// The probes: liveness (the process answers) and readiness (the database answers and its migrations
// are current). Both answer whatever the database's state (app.ts lets them through).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Detail } from '@ejdesk/contract/schemas/common.ts';
import { databaseUnavailable } from '../../plugins/errors.ts';

const Health = { 200: Type.Object({ status: Type.Literal('ok') }) };
const Ready = { 200: Type.Object({ status: Type.Literal('ready') }), 503: Detail };

export const probeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { ctx } = app;
  for (const url of ['/api/health', '/api/health/'])
    app.get(url, { logLevel: 'warn', config: { credential: 'none' }, schema: { response: Health } }, async () => ({ status: 'ok' as const }));
  for (const url of ['/api/ready', '/api/ready/']) {
    app.get(url, { logLevel: 'warn', config: { credential: 'none' }, schema: { response: Ready } }, async (_request, reply) => {
      const current = ctx.status.migrated && (await ctx.database.isCurrent().catch(() => false));
      if (!current) return databaseUnavailable(reply);
      return { status: 'ready' as const };
    });
  }
};
