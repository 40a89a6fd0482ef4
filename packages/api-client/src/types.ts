// The entities (docs/data-model.md), as the API sends them: derived from the schemas the API validates
// its answers with (@ejdesk/contract), type-only, so the client cannot drift from the server.
import type { Answer } from '@ejdesk/contract';
import type * as admin from '@ejdesk/contract/schemas/admin.ts';
import type * as emails from '@ejdesk/contract/schemas/emails.ts';

/** bank_pass is masked in lists; the clear text comes only from revealBankPassword. */
export type BankPassword = Answer<typeof admin.BankPassword>;
export type RevealedBankPassword = Answer<typeof admin.RevealedBankPassword>;
export type BankMsp = Answer<typeof admin.BankMsp>;

/** A page of a list (its row schema varies, so the shape is written once here, generic). */
export interface Paginated<T> {
  count: number;
  /** False when count is an estimate of a broad match ("about"); page=last counts exactly. Every answer has it; a test's fake may not. */
  count_exact?: boolean;
  /** The page answered (page=last: the last one's number). */
  page?: number;
  total_pages: number;
  next: string | null;
  previous: string | null;
  results: T[];
}

export type DashboardCounts = Answer<typeof emails.DashboardCounts>;
/** A scraped email as the lists show it. */
export type EmailListRow = Answer<typeof emails.EmailListRow>;
export type JsonRecord = Record<string, unknown>;
export type EmailJsonItem = Answer<typeof emails.EmailJsonItem>;
export type EmailDetails = Answer<typeof emails.EmailDetails>;
