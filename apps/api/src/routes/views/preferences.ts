// /api/preferences/{key}/: the signed-in operator's own console choices (a table's columns). Nobody
// reads or changes another operator's: the key is always looked up under the token's user.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { deletePreference, getPreference, preferenceLimit, savePreference } from '@ejdesk/db';
import { errorResponses } from '@ejdesk/contract/schemas/common.ts';
import { ColumnChoice, Preference, PreferenceParams } from '@ejdesk/contract/schemas/preferences.ts';

export const preferenceRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.ctx;

  // Nothing saved yet is an ordinary answer (value null), not a 404: every table asks on first use.
  app.get(
    '/:key/',
    { config: { credential: 'user' }, schema: { params: PreferenceParams, response: { 200: Preference, ...errorResponses } } },
    async (request) => {
      const row = await getPreference(db, request.user!.id, request.params.key);
      return { key: request.params.key, value: (row?.value ?? null) as never, update_at: row?.update_at ?? null };
    },
  );

  app.put(
    '/:key/',
    { config: { credential: 'user' }, schema: { params: PreferenceParams, body: ColumnChoice, response: { 200: Preference, ...errorResponses } } },
    async (request, reply) => {
      const row = await savePreference(db, request.user!.id, request.params.key, request.body);
      if (row === 'full') return reply.code(400).send({ detail: `At most ${preferenceLimit} preferences are kept per operator.` });
      return { key: request.params.key, value: row.value as never, update_at: row.update_at };
    },
  );

  app.delete(
    '/:key/',
    { config: { credential: 'user' }, schema: { params: PreferenceParams, response: { 204: Type.Null(), ...errorResponses } } },
    async (request, reply) => {
      await deletePreference(db, request.user!.id, request.params.key);
      return reply.code(204).send(null);
    },
  );
};
