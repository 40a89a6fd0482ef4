// A stored message's attachments, as the sender attached them: listed (name, type, size) for the
// email's page, and one of them given back whole for its download. The message is parsed as a
// stream, one attachment at a time: only the one asked for is held.
import { once } from 'node:events';
import { MailParser, type AttachmentStream, type MessageText } from 'mailparser';

export interface AttachmentInfo {
  /** Its place among the message's attachments, from 0: how a download names it. */
  index: number;
  fileName: string;
  contentType: string;
  size: number;
}

/** The attachments listed, and the bytes of the one at `keep` (null when none is asked or there is none). */
export function readAttachments(raw: Buffer, keep?: number): Promise<{ list: AttachmentInfo[]; kept: Buffer | null }> {
  return new Promise((resolve, reject) => {
    const parser = new MailParser({ skipTextToHtml: true, skipHtmlToText: true, skipImageLinks: true });
    const list: AttachmentInfo[] = [];
    let kept: Buffer | null = null;
    let chain = Promise.resolve();
    let failed = false;
    parser.on('data', (data: AttachmentStream | MessageText) => {
      if (data.type !== 'attachment') return;
      const index = list.length;
      const info: AttachmentInfo = {
        index,
        fileName: data.filename ?? `attachment-${index + 1}`,
        contentType: data.contentType || 'application/octet-stream',
        size: 0,
      };
      list.push(info);
      chain = chain
        .then(async () => {
          const pieces: Buffer[] = [];
          for await (const piece of data.content as AsyncIterable<Buffer>) {
            info.size += piece.length;
            if (index === keep) pieces.push(piece);
          }
          if (index === keep) kept = Buffer.concat(pieces);
        })
        .catch((error: unknown) => {
          failed = true;
          reject(error);
        })
        .finally(() => data.release?.());
    });
    parser.on('error', (error: Error) => {
      failed = true;
      reject(error);
    });
    parser.on('end', () => void chain.then(() => !failed && resolve({ list, kept })));
    // A parser error while waiting to write rejects the wait: it is this read's failure, not the process's.
    void (async () => {
      try {
        for (let at = 0; at < raw.length && !failed; at += 64 * 1024) {
          if (!parser.write(raw.subarray(at, at + 64 * 1024))) await once(parser, 'drain');
        }
        parser.end();
      } catch (error) {
        failed = true;
        reject(error as Error);
      }
    })();
  });
}
