// The original client posts multipart form data; JSON and urlencoded are accepted too. Bodies are
// small form fields only: files are refused and sizes are capped.
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { bodyLimit } from '@ejdesk/http';

export async function registerBodies(app: FastifyInstance): Promise<void> {
  await app.register(formbody, { bodyLimit });
  await app.register(multipart, {
    attachFieldsToBody: 'keyValues',
    limits: { files: 0, fields: 20, fieldSize: bodyLimit, parts: 20, fieldNameSize: 100 },
  });
}
