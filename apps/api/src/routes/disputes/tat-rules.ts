// /api/admin/tat-rules/: the turnaround rules as an admin list (list, add, change, delete; each
// write audited). A write moves the open disputes onto the rules as they now are, in the same transaction.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { checkTatRule, tatRuleList } from '@ejdesk/db';
import { TatRule, TatRuleBody } from '@ejdesk/contract/schemas/disputes.ts';
import { auditedList, auditedListRoutes } from '../../lib/audited-lists.ts';

const tatRules = auditedList({
  path: '/tat-rules/',
  row: TatRule,
  body: TatRuleBody,
  check: checkTatRule,
  store: tatRuleList,
  duplicate: (input) =>
    `A TAT rule named "${input.name}" or for ${input.scope === 'all' ? 'all disputes' : `the ${input.scope} "${input.scopeValue}"`} already exists.`,
});

export const tatRuleRoutes: FastifyPluginAsyncTypebox = auditedListRoutes(tatRules);
