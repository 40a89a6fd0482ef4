// /api/admin/rule-sets/: the networks' and regulators' rule sets (admins): read with their clocks,
// and switched on or off (audited). A dispute runs the clocks of the active sets of its network.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { listRuleSets, setRuleSetActive } from '@ejdesk/db';
import { errorResponses } from '@ejdesk/contract/schemas/common.ts';
import { RuleSet, RuleSetBody, RuleSetParams } from '@ejdesk/contract/schemas/disputes.ts';

export const ruleSetRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.ctx;
  app.get('/rule-sets/', { config: { credential: 'admin' }, schema: { response: { 200: Type.Array(RuleSet), ...errorResponses } } }, async () =>
    listRuleSets(db),
  );
  app.patch(
    '/rule-sets/:id/',
    { config: { credential: 'admin' }, schema: { params: RuleSetParams, body: RuleSetBody, response: { 200: RuleSet, ...errorResponses } } },
    async (request, reply) => {
      const set = await setRuleSetActive(db, request.params.id, request.body.active, request.user!.id);
      if (!set) return reply.code(404).send({ detail: 'Not found.' });
      return set;
    },
  );
};
