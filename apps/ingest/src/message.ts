// What is read from a raw message before it is stored: its identity and the header fields the
// lists show while it waits in the queue. The body is parsed later, by processing.
import { createHash } from 'node:crypto';
import { simpleParser, type AddressObject, type ParsedMail } from 'mailparser';
import type { NewMessage } from '@ejdesk/db';
import { cleanText } from './extract/columns.ts';
import { limits } from './limits.ts';

/** "Re: FW: [EXT] ATM dispute  APX" -> "atm dispute apx": replies and forwards share a subject. */
export function normalizeSubject(subject: string): string {
  let s = subject.toLowerCase().replace(/\s+/g, ' ').trim();
  for (let previous = ''; previous !== s;) {
    previous = s;
    s = s.replace(/^(\[[^\]]*\]|(re|fw|fwd|aw|sv|wg|tr|rif)(\[\d+\])?\s*:)\s*/, '');
  }
  return s.slice(0, 500);
}

const addressesOf = (field: AddressObject | AddressObject[] | undefined): string[] =>
  (Array.isArray(field) ? field : field ? [field] : [])
    .flatMap((group) => group.value.flatMap((a) => (a.group ? a.group : [a])))
    .map((a) => (a.address ?? '').toLowerCase())
    .filter(Boolean);

const validDate = (text: string | undefined): Date | undefined => {
  const date = text ? new Date(text.trim()) : undefined;
  return date && !Number.isNaN(date.getTime()) && date.getUTCFullYear() > 1970 && date.getUTCFullYear() < 9999 ? date : undefined;
};

/**
 * The Date header's time, only when there is one that parses: mailparser puts the time of parsing
 * in `date` for a header it cannot read, which would file the message in the month of the run.
 */
export function headerDate(mail: Pick<ParsedMail, 'headerLines'>): Date | undefined {
  const line = mail.headerLines?.find((h) => h.key === 'date')?.line;
  return validDate(line?.replace(/^date:\s*/i, ''));
}

/** When the nearest mail server received it: the date of the topmost Received header. */
function receivedDate(mail: Pick<ParsedMail, 'headerLines'>): Date | undefined {
  const line = mail.headerLines?.find((h) => h.key === 'received')?.line;
  return validDate(line?.split(';').pop());
}

export const senderOf = (from: AddressObject | undefined) => addressesOf(from)[0] ?? '';
export const recipientsOf = (to: AddressObject | AddressObject[] | undefined) => cleanText(addressesOf(to).join(', '), 2000);

/** The header block: everything up to the first empty line (at most 256 KB). */
function headerBlock(raw: Buffer): Buffer {
  const limit = Math.min(raw.length, 256 * 1024);
  for (let i = 0; i < limit - 1; i++) {
    if (raw[i] === 10 && (raw[i + 1] === 10 || (raw[i + 1] === 13 && raw[i + 2] === 10))) return raw.subarray(0, i + 1);
  }
  return raw.subarray(0, limit);
}

export interface RawMessage {
  raw: Buffer;
  /** The full size when `raw` holds only the start of an oversized message. */
  size: number;
  origin: string;
  /** The mailbox's own receipt time (IMAP INTERNALDATE), when there is one. */
  internalDate?: Date | undefined;
  fetchError?: string | undefined;
}

/** A raw message ready to store: identified by its Message-ID, else by a hash of its bytes. */
export async function toNewMessage(message: RawMessage): Promise<NewMessage> {
  const headers = await simpleParser(headerBlock(message.raw), { skipHtmlToText: true, skipTextToHtml: true }).catch(() => null);
  const messageId = cleanText(headers?.messageId ?? '', 500);
  const subject = cleanText(headers?.subject ?? '', limits.textChars);
  const date = headers ? headerDate(headers) : undefined;
  return {
    messageId: messageId || `sha256:${createHash('sha256').update(message.raw).digest('hex')}`,
    emailFrom: senderOf(headers?.from),
    emailTo: recipientsOf(headers?.to),
    subject,
    normalizedSubject: normalizeSubject(subject),
    // Its Date header, else when it was delivered: the mailbox's own time, else the last Received hop.
    receivedAt: date ?? message.internalDate ?? (headers ? receivedDate(headers) : undefined) ?? new Date(),
    raw: message.raw,
    size: message.size,
    origin: message.origin,
    fetchError: message.fetchError,
  };
}
