// /api/admin/users/: the accounts, admins only: listed, created, given a role, disabled or enabled
// again, and a password reset (each change audited).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { changeAccount, createAccount, listAccounts, resetAccountPassword } from '@ejdesk/db';
import { Account, AccountParams, ChangeAccountBody, CreateAccountBody, ResetPasswordBody } from '@ejdesk/contract/schemas/accounts.ts';
import { errorResponses } from '@ejdesk/contract/schemas/common.ts';
import { hashPassword } from '../../lib/passwords.ts';

export const accountRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.ctx;

  app.get('/users/', { config: { credential: 'admin' }, schema: { response: { 200: Type.Array(Account), ...errorResponses } } }, async () => listAccounts(db));

  app.post(
    '/users/',
    { config: { credential: 'admin' }, schema: { body: CreateAccountBody, response: { 201: Account, ...errorResponses } } },
    async (request, reply) => {
      const { email, password, role } = request.body;
      const row = await createAccount(db, request.user!.id, email.trim(), await hashPassword(password), role);
      if (!row) return reply.code(400).send({ detail: `An account for '${email.trim()}' already exists.` });
      return reply.code(201).send(row);
    },
  );

  app.patch(
    '/users/:id/',
    { config: { credential: 'admin' }, schema: { params: AccountParams, body: ChangeAccountBody, response: { 200: Account, ...errorResponses } } },
    async (request, reply) => {
      const { role, is_active } = request.body;
      // An admin cannot lock themselves out: another admin has to do it.
      if (request.params.id === request.user!.id && (is_active === false || role === 'operator')) {
        return reply.code(400).send({ detail: 'You cannot disable your own account or take away your own admin role; ask another admin.' });
      }
      const row = await changeAccount(db, request.user!.id, request.params.id, { role, isActive: is_active });
      if (!row) return reply.code(404).send({ detail: 'Not found.' });
      return row;
    },
  );

  app.post(
    '/users/:id/reset-password/',
    { config: { credential: 'admin' }, schema: { params: AccountParams, body: ResetPasswordBody, response: { 200: Account, ...errorResponses } } },
    async (request, reply) => {
      const row = await resetAccountPassword(db, request.user!.id, request.params.id, await hashPassword(request.body.password));
      if (!row) return reply.code(404).send({ detail: 'Not found.' });
      return row;
    },
  );
};
