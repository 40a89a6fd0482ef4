// Everything under /api/scrape requires a valid access token, unknown paths included.
import type { FastifyPluginAsync } from 'fastify';
import { authenticate } from '../../plugins/authenticate.ts';
import { adminRoutes } from './admin.ts';
import { emailRoutes } from './emails.ts';
import { extractRoutes } from './extract.ts';
import { fileRoutes } from './files.ts';

export const scrapeRoutes: FastifyPluginAsync = async (app) => {
  app.decorateRequest('user', null);
  app.addHook('onRequest', authenticate);
  app.setNotFoundHandler((_request, reply) => reply.code(404).send({ detail: 'Not found.' }));
  await app.register(adminRoutes);
  await app.register(emailRoutes);
  await app.register(extractRoutes);
  await app.register(fileRoutes);
};
