// /api/scrape/store/password/* and /api/scrape/bank/msp/*: the banks' admin lists (docs/api.md),
// admins only: each bank's stored password (revealed with a reason, audited) and its MSP.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  changeBankMsp,
  changeBankPassword,
  createBankMsp,
  createBankPassword,
  deleteBankMsp,
  deleteBankPassword,
  encryptBankPass,
  listBankMsps,
  listBankPasswords,
  revealBankPassword,
} from '@ejdesk/db';
import {
  BankMsp,
  BankPassword,
  ChangeBankPasswordBody,
  CreateBankMspBody,
  CreateBankPasswordBody,
  IdParams,
  RevealBody,
  RevealedBankPassword,
} from '@ejdesk/contract/schemas/admin.ts';
import { errorResponses } from '@ejdesk/contract/schemas/common.ts';
import { RequestMade } from '@ejdesk/contract/schemas/approvals.ts';
import { heldListChange } from '../../lib/four-eyes.ts';

export const bankListRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, secrets } = app.ctx;
  app.get('/store/password/list/', { config: { credential: 'admin' }, schema: { response: { 200: Type.Array(BankPassword), ...errorResponses } } }, async () =>
    listBankPasswords(db),
  );

  app.post(
    '/store/password/create/',
    { config: { credential: 'admin' }, schema: { body: CreateBankPasswordBody, response: { 201: BankPassword, 202: RequestMade, ...errorResponses } } },
    async (request, reply) => {
      const { bank_name, bank_pass } = request.body;
      const body = { bank_name: bank_name.trim(), bank_pass_sealed: encryptBankPass(secrets.bankPassKey, bank_pass).toString('base64') };
      if (await heldListChange(db, reply, 'bank_password', { op: 'create', body }, `Store a password for bank ${bank_name.trim()}`, request.user!))
        return reply;
      const row = await createBankPassword(db, secrets.bankPassKey, request.user!.id, bank_name.trim(), bank_pass);
      if (!row) return reply.code(400).send({ detail: `A password for bank '${bank_name.trim()}' is already stored.` });
      return reply.code(201).send(row);
    },
  );

  app.post(
    '/store/password/:id/reveal/',
    {
      config: { credential: 'admin', secret: true, idempotency: 'repeatable' },
      schema: { params: IdParams, body: RevealBody, response: { 200: RevealedBankPassword, ...errorResponses } },
    },
    async (request, reply) => {
      const row = await revealBankPassword(db, secrets.bankPassKey, request.user!.id, request.params.id, request.body.reason.trim(), request.clientIp);
      if (!row) return reply.code(404).send({ detail: 'Not found.' });
      return row;
    },
  );

  // A rotated password is changed (sealed again), a bank renamed; both audited, the password never logged.
  app.put(
    '/store/password/:id/',
    {
      config: { credential: 'admin', secret: true },
      schema: { params: IdParams, body: ChangeBankPasswordBody, response: { 200: BankPassword, 202: RequestMade, ...errorResponses } },
    },
    async (request, reply) => {
      const bankName = request.body.bank_name.trim();
      const pass = request.body.bank_pass;
      const body = { bank_name: bankName, ...(pass ? { bank_pass_sealed: encryptBankPass(secrets.bankPassKey, pass).toString('base64') } : {}) };
      const words = `Change bank password ${request.params.id}: bank ${bankName}${pass ? ', a new password' : ''}`;
      if (await heldListChange(db, reply, 'bank_password', { op: 'change', id: request.params.id, body }, words, request.user!)) return reply;
      const changed = await changeBankPassword(db, secrets.bankPassKey, request.user!.id, request.params.id, bankName, request.body.bank_pass);
      if ('row' in changed) return changed.row;
      if (changed.problem === 'taken') return reply.code(400).send({ detail: `A password for bank '${bankName}' is already stored.` });
      return reply.code(404).send({ detail: 'Not found.' });
    },
  );

  app.delete(
    '/store/password/:id/',
    { config: { credential: 'admin' }, schema: { params: IdParams, response: { 204: Type.Null(), 202: RequestMade, ...errorResponses } } },
    async (request, reply) => {
      if (await heldListChange(db, reply, 'bank_password', { op: 'delete', id: request.params.id }, `Delete bank password ${request.params.id}`, request.user!))
        return reply;
      if (!(await deleteBankPassword(db, request.user!.id, request.params.id))) return reply.code(404).send({ detail: 'Not found.' });
      return reply.code(204).send(null);
    },
  );

  app.get('/bank/msp/list/', { config: { credential: 'admin' }, schema: { response: { 200: Type.Array(BankMsp), ...errorResponses } } }, async () =>
    listBankMsps(db),
  );

  app.post(
    '/bank/msp/create/',
    { config: { credential: 'admin' }, schema: { body: CreateBankMspBody, response: { 201: BankMsp, ...errorResponses } } },
    async (request, reply) => {
      const msp = request.body.msp.trim();
      const bankName = request.body.bank_name.trim();
      const row = await createBankMsp(db, request.user!.id, msp, bankName);
      if (!row) return reply.code(400).send({ detail: `Bank '${bankName}' is already mapped to MSP '${msp}'.` });
      return reply.code(201).send(row);
    },
  );

  app.put(
    '/bank/msp/:id/',
    { config: { credential: 'admin' }, schema: { params: IdParams, body: CreateBankMspBody, response: { 200: BankMsp, ...errorResponses } } },
    async (request, reply) => {
      const msp = request.body.msp.trim();
      const bankName = request.body.bank_name.trim();
      const changed = await changeBankMsp(db, request.user!.id, request.params.id, msp, bankName);
      if ('row' in changed) return changed.row;
      if (changed.problem === 'taken') return reply.code(400).send({ detail: `Bank '${bankName}' is already mapped to MSP '${msp}'.` });
      return reply.code(404).send({ detail: 'Not found.' });
    },
  );

  app.delete(
    '/bank/msp/:id/',
    { config: { credential: 'admin' }, schema: { params: IdParams, response: { 204: Type.Null(), ...errorResponses } } },
    async (request, reply) => {
      if (!(await deleteBankMsp(db, request.user!.id, request.params.id))) return reply.code(404).send({ detail: 'Not found.' });
      return reply.code(204).send(null);
    },
  );
};
