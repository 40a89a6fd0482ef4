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
  fourEyes: {
    action: 'tat_rule',
    describe: (c) =>
      c.op === 'delete'
        ? `Delete TAT rule ${c.id}`
        : `${c.op === 'create' ? 'Add' : `Change TAT rule ${c.id} to`} "${String(c.body?.name ?? '')}": ${String(c.body?.days ?? '')} ${String(c.body?.day_kind ?? '')} days from the ${String(c.body?.clock_start ?? '').replace('_', ' ')}, ${String(c.body?.penalty_per_day ?? '')} ${String(c.body?.currency ?? '')} a day after`,
  },
  duplicate: (input) =>
    `A TAT rule named "${input.name}" or for ${input.scope === 'all' ? 'all disputes' : `the ${input.scope} "${input.scopeValue}"`} already exists.`,
});

export const tatRuleRoutes: FastifyPluginAsyncTypebox = auditedListRoutes(tatRules);
