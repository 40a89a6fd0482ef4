// /api/admin/sender-mappings/ and /api/admin/ignore-rules/: the ingester's rules as admin lists
// (list, add, change, delete; each write audited): which sender is which bank, and what mail to ignore.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { checkIgnoreRule, checkSenderMapping, ignoreRuleList, senderMappings } from '@ejdesk/db';
import { IgnoreRule, IgnoreRuleBody, SenderMapping, SenderMappingBody } from '@ejdesk/contract/schemas/rules.ts';
import { auditedList, auditedListRoutes } from '../../lib/audited-lists.ts';

const lists = [
  auditedList({
    path: '/sender-mappings/',
    row: SenderMapping,
    body: SenderMappingBody,
    check: checkSenderMapping,
    store: senderMappings,
    duplicate: (input) => `The sender '${input.sender}' is already mapped.`,
  }),
  auditedList({
    path: '/ignore-rules/',
    row: IgnoreRule,
    body: IgnoreRuleBody,
    check: checkIgnoreRule,
    store: ignoreRuleList,
    duplicate: (input) => `An ignore rule for the ${input.field} "${input.pattern}" already exists.`,
  }),
];

export const ruleRoutes: FastifyPluginAsyncTypebox = async (app) => {
  for (const list of lists) await app.register(auditedListRoutes(list));
};
