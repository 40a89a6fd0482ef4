// /api/emails/:id/: what an email brought and produced (its attachments, files, records and
// disputes), and each attachment's download. An attachment is the sender's bytes, so it is only
// ever a download: never shown inline, never sniffed into a page that runs (nosniff, a
// Content-Security-Policy that allows nothing), its name kept to characters every system takes.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { dayIn, emailProduce, storedMessage } from '@ejdesk/db';
import { readAttachments, type AttachmentInfo } from '@ejdesk/mailbox';
import { IdParams } from '@ejdesk/contract/schemas/admin.ts';
import { errorResponses, FileAnswer } from '@ejdesk/contract/schemas/common.ts';
import { AttachmentParams, EmailProduce } from '@ejdesk/contract/schemas/emails.ts';

/**
 * The name as a download takes it: the sender's, with anything but letters, digits, '.', '_' and
 * '-' as '_', and no leading dots (no hidden file, no '..').
 */
const safeName = (name: string) =>
  name
    .replace(/[^\p{L}\p{M}\p{N}._-]+/gu, '_')
    .replace(/^\.+/, '')
    .slice(0, 200) || 'attachment';

export const producedRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, config } = app.ctx;

  app.get(
    '/:id/produce/',
    { config: { credential: 'user' }, schema: { params: IdParams, response: { 200: EmailProduce, ...errorResponses } } },
    async (request, reply) => {
      const produce = await emailProduce(db, request.params.id, dayIn(config.clockTimeZone));
      if (!produce) return reply.code(404).send({ detail: 'Not found.' });
      const raw = await storedMessage(db, request.params.id);
      let attachments: AttachmentInfo[] = [];
      let problem: string | null = raw ? null : 'The message itself was not kept, so its attachments cannot be listed.';
      if (raw) {
        try {
          attachments = (await readAttachments(raw)).list;
        } catch {
          problem = 'The stored message could not be read for its attachments.';
        }
      }
      return {
        ...produce,
        attachments: attachments.map((a) => ({ index: a.index, file_name: a.fileName, content_type: a.contentType, size: a.size })),
        attachments_problem: problem,
      };
    },
  );

  app.get(
    '/:id/attachments/:index',
    { config: { credential: 'user' }, schema: { params: AttachmentParams, response: { 200: FileAnswer('application/octet-stream'), ...errorResponses } } },
    async (request, reply) => {
      const raw = await storedMessage(db, request.params.id);
      if (!raw) return reply.code(404).send({ detail: 'No stored message for this email.' });
      const { list, kept } = await readAttachments(raw, request.params.index).catch(() => ({ list: [], kept: null }));
      const info = list[request.params.index];
      if (!info || !kept) return reply.code(404).send({ detail: `This email has no attachment ${request.params.index}.` });
      const name = safeName(info.fileName);
      return reply
        .type('application/octet-stream')
        .header('content-disposition', `attachment; filename="${name.replace(/[^\x20-\x7e]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`)
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .send(kept);
    },
  );
};
