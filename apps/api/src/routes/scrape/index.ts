// /api/scrape: the emails, EJ records, files and the admin lists; an unknown path asks for a user's token.
import type { FastifyPluginAsync } from 'fastify';
import { unknownPathsNeed } from '../../plugins/credentials.ts';
import { adminRoutes } from './admin.ts';
import { emailRoutes } from './emails.ts';
import { extractRoutes } from './extract.ts';
import { fileRoutes } from './files.ts';

export const scrapeRoutes: FastifyPluginAsync = async (app) => {
  // An unknown path asks for a user's token too.
  app.addHook('onRequest', unknownPathsNeed('user'));
  app.setNotFoundHandler((_request, reply) => reply.code(404).send({ detail: 'Not found.' }));
  await app.register(adminRoutes);
  await app.register(emailRoutes);
  await app.register(extractRoutes);
  await app.register(fileRoutes);
};
