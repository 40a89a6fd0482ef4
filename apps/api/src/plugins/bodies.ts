// The original client posts multipart form data; JSON and urlencoded are accepted too. Bodies are
// small form fields only: files are refused and sizes are capped, except on a route that takes a
// file (a journal upload) and says how large in its `config.multipartOptions`.
import formbody from '@fastify/formbody';
import multipart, { type MultipartFile } from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { bodyLimit } from '@ejdesk/http';

declare module 'fastify' {
  interface FastifyRequest {
    /** The files of a multipart body by field: the name and type the client gave (their bytes are the body's field). */
    uploads: Map<string, { fileName: string; type: string }>;
  }
}

/** A file larger than its route takes: 413, naming the limit. */
class FileTooLarge extends Error {
  statusCode = 413;
}

async function keepFile(this: FastifyRequest, part: MultipartFile): Promise<void> {
  try {
    await part.toBuffer();
  } catch (error) {
    if ((error as { code?: string }).code !== 'FST_REQ_FILE_TOO_LARGE') throw error;
    const limit = this.routeOptions.config.multipartOptions?.limits?.fileSize ?? bodyLimit;
    throw new FileTooLarge(`The file is larger than ${Math.round(limit / 1024 / 1024)} MB, the most this upload takes.`);
  }
  this.uploads.set(part.fieldname, { fileName: part.filename, type: part.mimetype });
}

export async function registerBodies(app: FastifyInstance): Promise<void> {
  await app.register(formbody, { bodyLimit });
  app.decorateRequest('uploads', null as never);
  app.addHook('onRequest', async (request) => {
    request.uploads = new Map();
  });
  await app.register(multipart, {
    attachFieldsToBody: 'keyValues',
    onFile: keepFile,
    limits: { files: 0, fields: 20, fieldSize: bodyLimit, parts: 20, fieldNameSize: 100 },
  });
}
