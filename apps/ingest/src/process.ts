// Processing: claim a queued message, parse it, classify it, extract its rows and write them in the
// same transaction that takes it off the queue, so a crash at any point loses and duplicates nothing.
import {
  claimFingerprints,
  claimNextMessage,
  dayIn,
  markProcessingFailed,
  saveProcessedMessage,
  type Db,
  type EmailCategory,
  type IngestRules,
  type QueuedMessage,
} from '@ejdesk/db';
import { cleanText, JSON_RECORDS, type DisputeRow } from './extract/columns.ts';
import { Extractor, type Extraction } from './extract/index.ts';
import { isDeadlock, MailJournals } from './journals.ts';
import { limits } from './limits.ts';
import type { MemoryBudget } from './memory.ts';
import { headerDate, recipientsOf, senderOf } from './message.ts';
import { parseMessage, type ParsedMessage } from './parse.ts';
import { attachmentsInto } from './wrapped.ts';
import { identifySender } from './rules.ts';

export interface ProcessOutcome {
  emailId: number;
  category: EmailCategory;
  /** Rows written, per EJ kind (dispute / overage / succeeding) and per data file kind. */
  rows: Record<string, number>;
  failures: string[];
  /** Tables not read as disputes, and why. */
  skipped: string[];
  /** Electronic journals the message brought, and how many of them were new (the rest were stored already). */
  journals: { received: number; created: number };
}

/**
 * Files whose rows are disputes (as well as rows of their file): what banks mail as text, Excel,
 * PDF and other attachments. The MSPs' result files (missing, missing TXN, between successful)
 * answer disputes rather than raise them, so they stay file rows only; overage and succeeding
 * files land in their own EJ lists.
 */
const disputeFileKinds: ReadonlySet<string> = new Set(['text', 'excel', 'pdf', 'other']);

/** Marks the first message of a subject in subject_fingerprints. */
const SUBJECT_SEEN = '*';

const withMail = (row: DisputeRow, from: string, subject: string): DisputeRow => ({
  ...row,
  mailReceivedFrom: row.mailReceivedFrom || from,
  mailSubject: row.mailSubject || cleanText(subject),
});

/** The message's note on its journals: "Journals: 2 (1 new): a.jrn, b.zip/c.txt (stored already)". */
function journalNote(journals: Extraction['journals']): string | null {
  if (journals.length === 0) return null;
  const created = journals.filter((j) => j.created).length;
  const names = journals.slice(0, 20).map((j) => (j.created ? j.name : `${j.name} (stored already)`));
  const more = journals.length > 20 ? `, and ${journals.length - 20} more` : '';
  return `Journals: ${journals.length} (${created} new): ${names.join(', ')}${more}`;
}

/** Process one queued message inside the caller's transaction. */
async function processMessage(tx: Db, queued: QueuedMessage, rules: IngestRules): Promise<ProcessOutcome> {
  // The sender (and so whether to extract, and which passwords open its files) is known from the
  // headers, before the first attachment streams by.
  let sender: ReturnType<typeof identifySender> | undefined;
  let extractor: Extractor | undefined;
  let mail: ParsedMessage | null = null;
  let parseError: string | null = null;
  const journalsOf = new MailJournals(tx, queued.emailId);
  try {
    mail = await parseMessage(queued.raw, (headers) => {
      sender = identifySender(rules, senderOf(headers.from), cleanText(headers.subject, limits.textChars));
      if (sender.ignoredBecause) return null;
      extractor = new Extractor(cleanText(headers.subject, limits.textChars), sender.passwords, journalsOf.receive);
      return attachmentsInto(extractor);
    });
  } catch (err) {
    parseError = `the message could not be parsed (${(err as Error)?.message ?? String(err)})`;
  }
  if (journalsOf.deadlock) throw journalsOf.deadlock; // the whole message runs again (processNext)
  const from = senderOf(mail?.from);
  const subject = cleanText(mail?.subject ?? '', limits.textChars);
  const failures = [queued.fetchError, parseError].filter((f): f is string => !!f);
  sender ??= identifySender(rules, from, subject);
  // Without a Date header that parses, the time it was stored under (its delivery time) stands.
  const receivedAt = (mail && headerDate(mail)) ?? queued.receivedAt;

  let extraction: Extraction = { bodyRows: [], files: [], failures: [], skipped: [], journals: [] };
  if (mail && extractor && !sender.ignoredBecause) {
    extractor.body(mail.html, mail.text);
    extraction = extractor.result();
    failures.push(...extraction.failures);
  }

  // Same subject: what an earlier message of the subject already delivered is not stored again.
  const s = queued.normalizedSubject;
  let seenBefore = false;
  let fresh = (_fingerprint: string) => true;
  if (s && !sender.ignoredBecause) {
    // One statement: the subject's own marker (new only for its first message) and what this one brought.
    const fingerprints = [...extraction.bodyRows.map((r) => r.fingerprint), ...extraction.files.map((f) => f.fingerprint)];
    const claimed = await claimFingerprints(tx, s, queued.emailId, [SUBJECT_SEEN, ...fingerprints]);
    seenBefore = !claimed.has(SUBJECT_SEEN);
    fresh = (fingerprint) => claimed.has(fingerprint);
  }
  // A row repeated within one message is one row: the set keeps the first.
  const firstOf = new Set<string>();
  const once = (fingerprint: string) => fresh(fingerprint) && !firstOf.has(fingerprint) && firstOf.add(fingerprint) !== undefined;
  const bodyRows = extraction.bodyRows.filter((r) => once(r.fingerprint)).map((r) => ({ ...r, row: withMail(r.row, from, subject) }));
  const files = extraction.files
    .filter((f) => once(f.fingerprint))
    .map((f) => ({ ...f, rows: f.rows.map((r) => ({ ...r, row: withMail(r.row, from, subject) })) }));
  const newRows = bodyRows.length + files.reduce((n, f) => n + f.rows.length, 0);
  // A journal is what the message delivered, like a row: stored once whatever the subject (by its SHA-256).
  const journals = { received: extraction.journals.length, created: extraction.journals.filter((j) => j.created).length };

  const category: EmailCategory = sender.ignoredBecause
    ? 'ignored'
    : newRows > 0 || journals.created > 0
      ? seenBefore
        ? 'same_subject_processing'
        : 'processed'
      : (seenBefore || journals.received > 0) && failures.length === 0
        ? seenBefore
          ? 'same_subject'
          : 'processed'
        : 'ej_not_found';

  // Each file's EJ kind: its own (overage, succeeding), dispute for what banks mail, none for results.
  const ejKindOf = (f: (typeof files)[number]) => f.ejKind ?? (disputeFileKinds.has(f.kind) ? ('dispute' as const) : null);
  const rows: Record<string, number> = {};
  const count = (kind: string, n: number) => (rows[kind] = (rows[kind] ?? 0) + n);
  if (bodyRows.length) count('dispute', bodyRows.length);
  for (const f of files) {
    const ejKind = ejKindOf(f);
    if (ejKind && f.rows.length) count(ejKind, f.rows.length);
  }
  for (const f of files) count(f.kind, f.rows.length);

  await saveProcessedMessage(tx, {
    emailId: queued.emailId,
    fields: {
      emailFrom: from,
      emailTo: recipientsOf(mail?.to),
      subject,
      emailBody: cleanText(mail?.text ?? '', 1024 * 1024),
      emailBodyHtml: cleanText(mail?.html ?? '', limits.htmlBytes),
      receivedAt,
      numOfEmail: queued.positionInSubject,
    },
    category,
    jsonLoadData: [...bodyRows, ...files.flatMap((f) => f.rows)].slice(0, JSON_RECORDS).map((r) => r.record),
    processingError:
      [sender.ignoredBecause ? `ignored: ${sender.ignoredBecause}` : null, ...failures, journalNote(extraction.journals)].filter(Boolean).join('\n') || null,
    bankName: sender.bankName,
    msp: sender.msp,
    clockDay: dayIn(rules.clockTimeZone, receivedAt),
    bodyRows: bodyRows.map((r) => r.row),
    files: files.map((f) => ({ kind: f.kind, name: f.name, subjectName: subject, ejKind: ejKindOf(f), rows: f.rows.map((r) => r.row) })),
  });
  return { emailId: queued.emailId, category, rows, failures, skipped: extraction.skipped, journals };
}

// Two messages bringing the same journals in opposite orders may deadlock: PostgreSQL ends one, which runs again.
const RUN_AGAIN = Symbol('run again');
const ATTEMPTS = 3;

/**
 * Process the next queued message; null when none is free. A message whose results cannot be
 * written (a database error) is taken off the queue with that failure, so it cannot block the rest;
 * one whose transaction lost a deadlock is run again first.
 */
export async function processNext(db: Db, rules: IngestRules, budget: MemoryBudget): Promise<ProcessOutcome | null> {
  for (let attempt = 1; ; attempt++) {
    const outcome = await processOnce(db, rules, budget, attempt < ATTEMPTS);
    if (outcome !== RUN_AGAIN) return outcome;
  }
}

async function processOnce(db: Db, rules: IngestRules, budget: MemoryBudget, mayRunAgain: boolean): Promise<ProcessOutcome | null | typeof RUN_AGAIN> {
  let claimed: QueuedMessage | null = null;
  let held = 0;
  try {
    return await db.transaction(async (tx) => {
      claimed = await claimNextMessage(tx, async (bytes) => {
        await budget.acquire(bytes);
        held = bytes;
      });
      return claimed ? processMessage(tx as unknown as Db, claimed, rules) : null;
    });
  } catch (err) {
    const failed = claimed as QueuedMessage | null;
    if (!failed) throw err;
    if (mayRunAgain && isDeadlock(err)) return RUN_AGAIN;
    const reason = `the results could not be saved (${(err as Error)?.message ?? String(err)})`;
    await markProcessingFailed(db, failed.emailId, reason);
    return { emailId: failed.emailId, category: 'ej_not_found', rows: {}, failures: [reason], skipped: [], journals: { received: 0, created: 0 } };
  } finally {
    if (held) budget.release(held);
  }
}
