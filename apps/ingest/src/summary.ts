// What a run did, printed at its end: messages seen, stored, skipped, per category, rows per kind,
// journals received, and every failure with its reason.
import { emailCategories, type EmailCategory } from '@ejdesk/db';
import type { ProcessOutcome } from './process.ts';

export class Summary {
  seen = 0;
  stored = 0;
  alreadyStored = 0;
  processed = 0;
  categories: Record<EmailCategory, number> = Object.fromEntries(emailCategories.map((c) => [c, 0])) as Record<EmailCategory, number>;
  rows: Record<string, number> = {};
  /** Per-message failures: recorded on the message, the run goes on. */
  failures: { emailId: number; reason: string }[] = [];
  /** Tables that were not read as disputes, and why (not failures: most are unrelated tables). */
  skipped: { emailId: number; note: string }[] = [];
  /** Failures that stopped (part of) the run: a mailbox that cannot be reached, a bad path. */
  hardFailures: string[] = [];
  /** Electronic journals received, from mail and from a folder, and how many were new. */
  journals = { received: 0, created: 0 };
  /** A folder's files that are neither mail nor a journal, and its journal files that failed. */
  notJournals: string[] = [];
  journalFailures: string[] = [];

  record(outcome: ProcessOutcome): void {
    this.processed++;
    this.categories[outcome.category]++;
    for (const [kind, n] of Object.entries(outcome.rows)) this.rows[kind] = (this.rows[kind] ?? 0) + n;
    for (const reason of outcome.failures) this.failures.push({ emailId: outcome.emailId, reason });
    for (const note of outcome.skipped) this.skipped.push({ emailId: outcome.emailId, note });
    this.journals.received += outcome.journals.received;
    this.journals.created += outcome.journals.created;
  }

  toText(): string {
    const lines = [
      `Messages seen: ${this.seen}, stored: ${this.stored}, skipped as already stored: ${this.alreadyStored}, processed: ${this.processed}`,
      `Categories: ${emailCategories.map((c) => `${c} ${this.categories[c]}`).join(', ')}`,
      `Rows extracted: ${
        Object.keys(this.rows).length
          ? Object.entries(this.rows)
              .map(([k, n]) => `${k} ${n}`)
              .join(', ')
          : 'none'
      }`,
    ];
    if (this.journals.received || this.notJournals.length || this.journalFailures.length) {
      lines.push(
        `Journals received: ${this.journals.received}, new: ${this.journals.created}, already stored: ${this.journals.received - this.journals.created}`,
      );
    }
    if (this.notJournals.length) {
      lines.push(
        `Files that are neither mail nor a journal (${this.notJournals.length}): ${this.notJournals.slice(0, 20).join(', ')}${this.notJournals.length > 20 ? ', ...' : ''}`,
      );
    }
    if (this.journalFailures.length) {
      lines.push(`Journal files that failed (${this.journalFailures.length}):`);
      for (const f of this.journalFailures.slice(0, 50)) lines.push(`  ${f}`);
      if (this.journalFailures.length > 50) lines.push(`  ... and ${this.journalFailures.length - 50} more`);
    }
    if (this.failures.length) {
      lines.push(`Failures (${this.failures.length}; recorded on the message, shown as ej_not_found):`);
      for (const f of this.failures.slice(0, 50)) lines.push(`  email ${f.emailId}: ${f.reason}`);
      if (this.failures.length > 50) lines.push(`  ... and ${this.failures.length - 50} more`);
    }
    if (this.skipped.length) {
      lines.push(`Tables skipped (${this.skipped.length}; a dispute table names 3 of the 16 columns, among them ATM ID and Txn No, RRN or Card No):`);
      for (const s of this.skipped.slice(0, 20)) lines.push(`  email ${s.emailId}: ${s.note}`);
      if (this.skipped.length > 20) lines.push(`  ... and ${this.skipped.length - 20} more`);
    }
    for (const f of this.hardFailures) lines.push(`FAILED: ${f}`);
    return lines.join('\n');
  }
}
