// Attachments that wrap mail rather than hold data, opened so that what they hold is read like
// the message's own: a forwarded message (message/rfc822), opaque S/MIME signed mail (the signed
// message inside a CMS structure), Outlook's TNEF (winmail.dat: its files and its own body). A
// wrapper's inner attachments go through the same door, so a forwarded signed message is opened
// twice over, to limits.wrapDepth. A detached S/MIME signature (multipart/signed) has nothing to
// read and is passed over.
import { wrapperOf, type Extractor, type IncomingAttachment } from './extract/index.ts';
import { signedContent } from './extract/smime.ts';
import { readTnef } from './extract/tnef.ts';
import { ExtractionError } from './extract/zip.ts';
import { limits } from './limits.ts';
import { parseMessage } from './parse.ts';
import { createHash } from 'node:crypto';

const names = { message: 'forwarded message', smime: 'smime.p7m', tnef: 'winmail.dat', signature: 'smime.p7s' } as const;

/** The handler processing gives the parser: each attachment to the extractor, wrappers opened first. */
export function attachmentsInto(extractor: Extractor): (attachment: IncomingAttachment) => Promise<void> {
  const take = async (attachment: IncomingAttachment, depth: number): Promise<void> => {
    const wrapper = wrapperOf(attachment.filename, attachment.contentType);
    if (!wrapper) return extractor.attachment(attachment);
    if (wrapper === 'signature') return;
    const name = attachment.filename || names[wrapper];
    try {
      if (!attachment.whole) throw new ExtractionError(`it is ${limits.mb(attachment.size)}, over the ${limits.mb(limits.attachmentBytes)} extraction limit`);
      if (depth >= limits.wrapDepth) throw new ExtractionError(`messages wrapped deeper than ${limits.wrapDepth} are not opened`);
      if (wrapper === 'tnef') {
        const tnef = readTnef(attachment.content);
        for (const file of tnef.files) {
          await take(
            {
              filename: file.name,
              contentType: '',
              content: file.data,
              size: file.data.length,
              sha256: createHash('sha256').update(file.data).digest('hex'),
              whole: file.data.length <= limits.attachmentBytes,
            },
            depth + 1,
          );
        }
        if (tnef.html || tnef.text) extractor.body(tnef.html, tnef.text, `${name} body`);
        return;
      }
      const inner = wrapper === 'smime' ? signedContent(attachment.content) : Buffer.from(attachment.content);
      const mail = await parseMessage(inner, () => (inside) => take(inside, depth + 1));
      extractor.body(mail.html, mail.text, `${name} body`);
    } catch (err) {
      extractor.failed(name, err);
    }
  };
  return (attachment) => take(attachment, 0);
}
