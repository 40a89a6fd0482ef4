// A raw message parsed as a stream (mailparser's MailParser): its headers first, then each
// attachment handed over one at a time, and released before the parser goes on, then its text.
// simpleParser would hold every attachment's bytes at once, which for a 40 MB month-end message
// multiplied the ingester's memory; here only one attachment is held, and only when it is worth
// keeping (a binary file is hashed as it streams by, then dropped).
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import type { Readable } from 'node:stream';
import { compile } from 'html-to-text';
import { MailParser, type AddressObject, type AttachmentStream, type HeaderLines, type Headers, type MessageText } from 'mailparser';
import { worthKeeping, type IncomingAttachment } from './extract/index.ts';
import { limits } from './limits.ts';

export interface ParsedMessage {
  headerLines: HeaderLines;
  from: AddressObject | undefined;
  to: AddressObject | AddressObject[] | undefined;
  subject: string;
  text: string;
  html: string;
}

type MessageHeaders = Pick<ParsedMessage, 'headerLines' | 'from' | 'to' | 'subject'>;

/**
 * The text of an HTML-only message. mailparser would convert it with html-to-text, which compiles
 * its options afresh on every call (a third of a millisecond per message); compiled once here.
 * mailparser's own bounds: the HTML length limit, and nesting depth.
 */
const htmlToText = compile({ limits: { maxDepth: 1000 } });
const textOfHtml = (html: string): string => {
  if (!html || html.length > limits.htmlBytes) return '';
  try {
    return htmlToText(html);
  } catch {
    return ''; // HTML that cannot be converted is no reason to lose the message
  }
};

/** What to do with the attachments, decided from the headers (null: drain them unread). */
type AttachmentHandler = (attachment: IncomingAttachment) => Promise<void>;

/** The attachment's bytes (whole, or only the first 4 KB when not worth keeping), size and hash. */
async function collect(attachment: AttachmentStream, charset: string | undefined): Promise<IncomingAttachment> {
  const hash = createHash('sha256');
  let chunks: Buffer[] = [];
  let size = 0;
  let whole: boolean | undefined;
  for await (const chunk of attachment.content as Readable) {
    const piece = chunk as Buffer;
    hash.update(piece);
    size += piece.length;
    if (whole === false) continue;
    chunks.push(piece);
    if (whole === undefined && size >= 4096) whole = worthKeeping(attachment.filename, attachment.contentType, Buffer.concat(chunks).subarray(0, 4096), 0);
    if (size > limits.attachmentBytes) whole = false;
    if (whole === false) chunks = [Buffer.concat(chunks).subarray(0, 4096)];
  }
  const content = Buffer.concat(chunks);
  if (whole === undefined) whole = worthKeeping(attachment.filename, attachment.contentType, content.subarray(0, 4096), size);
  return {
    filename: attachment.filename,
    contentType: attachment.contentType,
    charset,
    content: whole ? content : content.subarray(0, 4096),
    size,
    sha256: hash.digest('hex'),
    whole: whole && size <= limits.attachmentBytes,
  };
}

const charsetOf = (headers: Headers): string | undefined => {
  const type = headers.get('content-type') as { params?: { charset?: string } } | string | undefined;
  return typeof type === 'object' ? type?.params?.charset : undefined;
};

/** Parse a raw message given whole or as pieces (a stored big message is read piece by piece). */
export function parseMessage(
  raw: Buffer | Iterable<Buffer> | AsyncIterable<Buffer>,
  onHeaders: (headers: MessageHeaders) => AttachmentHandler | null,
): Promise<ParsedMessage> {
  return new Promise((resolve, reject) => {
    const parser = new MailParser({ skipTextToHtml: true, skipHtmlToText: true, skipImageLinks: true, maxHtmlLengthToParse: limits.htmlBytes });
    let headers: Headers = new Map();
    let headerLines: HeaderLines = [];
    let text = '';
    let html = '';
    let handler: AttachmentHandler | null | undefined;
    let failed = false;
    // Attachments one after the other: each is released (and the parser goes on) once handled.
    let chain = Promise.resolve();
    const view = (): MessageHeaders => ({
      headerLines,
      from: headers.get('from') as AddressObject | undefined,
      to: headers.get('to') as AddressObject | AddressObject[] | undefined,
      subject: typeof headers.get('subject') === 'string' ? (headers.get('subject') as string) : '',
    });
    parser.on('headers', (value: Headers) => (headers = value));
    parser.on('headerLines', (value: HeaderLines) => (headerLines = value));
    parser.on('data', (data: AttachmentStream | MessageText) => {
      if (data.type === 'text') {
        text = data.text ?? '';
        html = typeof data.html === 'string' ? data.html : '';
        return;
      }
      if (handler === undefined) handler = onHeaders(view());
      const attachment = data;
      chain = chain
        .then(async () => {
          if (failed) return;
          const incoming = await collect(attachment, charsetOf(attachment.headers));
          if (handler) await handler(incoming);
        })
        .catch((error: unknown) => {
          failed = true;
          reject(error);
        })
        .finally(() => attachment.release?.());
    });
    parser.on('error', (error: Error) => {
      failed = true;
      reject(error);
    });
    parser.on('end', () => {
      void chain.then(() => {
        if (failed) return;
        if (handler === undefined) handler = onHeaders(view());
        resolve({ ...view(), text: text.trim() ? text : textOfHtml(html), html });
      });
    });
    // Fed in 64 KB pieces as the parser takes them: one 40 MB write would be split, decoded and
    // copied all at once inside the parser.
    void (async () => {
      for await (const piece of Buffer.isBuffer(raw) ? [raw] : raw) {
        for (let at = 0; at < piece.length && !failed; at += 64 * 1024) {
          if (!parser.write(piece.subarray(at, at + 64 * 1024))) await once(parser, 'drain');
        }
        if (failed) break;
      }
      parser.end();
    })().catch((error: unknown) => {
      failed = true;
      reject(error);
    });
  });
}
