// /api/admin/alert-rules/ and /api/admin/alert-deliveries/ (admins): the rules that warn before a
// dispute's clock runs out (an audited list; a webhook's key is sealed with the bank-password key
// and never answered back), and every warning and digest made, with what the other end answered.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sql } from 'drizzle-orm';
import { alertRuleList, checkAlertRule, encryptBankPass, listDeliveries, queryRows, RuleProblem } from '@ejdesk/db';
import { AlertDelivery, AlertRule, AlertRuleBody, DeliveryQuery } from '@ejdesk/contract/schemas/alerts.ts';
import { errorResponses } from '@ejdesk/contract/schemas/common.ts';
import { Paginated } from '@ejdesk/contract/schemas/lists.ts';
import { auditedList, auditedListRoutes } from '../../lib/audited-lists.ts';
import { pageOf, sendPage } from '../../lib/pagination.ts';

export const alertRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, secrets } = app.ctx;
  await app.register(
    auditedListRoutes(
      auditedList({
        path: '/alert-rules/',
        row: AlertRule,
        body: AlertRuleBody,
        check: (body) => {
          const { webhookSecret, ...rule } = checkAlertRule(body);
          return { ...rule, webhookSecretEncrypted: webhookSecret === undefined ? undefined : encryptBankPass(secrets.bankPassKey, webhookSecret) };
        },
        store: {
          ...alertRuleList,
          // A new webhook rule needs its key; a changed one keeps the stored key when none is sent.
          create: async (tx, userId, input) => {
            if (input.channel === 'webhook' && !input.webhookSecretEncrypted) throw new RuleProblem('webhook_secret is required for a new webhook rule');
            return alertRuleList.create(tx, userId, input);
          },
          change: async (tx, userId, id, input) => {
            if (input.channel === 'webhook' && !input.webhookSecretEncrypted) {
              const [stored] = await queryRows<{ keyed: boolean }>(
                tx,
                sql`select webhook_secret_encrypted is not null as keyed from alert_rules where id = ${id}`,
              );
              if (stored && !stored.keyed) throw new RuleProblem('webhook_secret is required: this rule has no webhook key yet');
            }
            return alertRuleList.change(tx, userId, id, input);
          },
        },
        duplicate: (input) => `An alert rule named "${input.name}" already exists.`,
      }),
    ),
  );

  app.get(
    '/alert-deliveries/',
    { config: { credential: 'admin' }, schema: { querystring: DeliveryQuery, response: { 200: Paginated(AlertDelivery), ...errorResponses } } },
    async (request, reply) => {
      const page = pageOf(request.query);
      return sendPage(request, reply, page, await listDeliveries(db, page, request.query.status));
    },
  );
};
