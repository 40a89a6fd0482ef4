// The journals domain's rows as the contract sends them: the same facts, the wire's names.
import type { Static } from 'typebox';
import type { JournalRow, JournalTransactionRow, ReceivedJournal } from '@ejdesk/db';
import type { JournalItem, JournalTransaction, JournalUpload } from '@ejdesk/contract/schemas/journals.ts';

type Item = Static<typeof JournalItem>;

export const journalOf = (row: JournalRow): Item => ({
  id: row.id,
  file_name: row.file_name,
  atm_id: row.atm_id,
  day: row.day,
  family: row.family,
  sha256: row.sha256,
  size_bytes: row.size_bytes,
  line_count: row.line_count,
  unknown_lines: row.unknown_lines,
  transaction_count: row.transactions,
  anomaly_count: row.anomaly_count,
  anomaly_kinds: row.anomaly_kinds as Item['anomaly_kinds'],
  source: row.source as Item['source'],
  email_id: row.email_id,
  uploaded_by: row.uploaded_by,
  create_at: row.create_at,
});

export const transactionOf = (row: JournalTransactionRow): Static<typeof JournalTransaction> => ({
  id: row.id,
  seq: row.seq,
  kind: row.kind,
  atm_id: row.atm_id,
  at: row.at,
  card_last4: row.card_last4,
  rrn: row.rrn,
  stan: row.stan,
  serial: row.serial,
  response_code: row.response_code,
  requested_amount: row.requested_amount,
  presented: row.presented,
  dispensed_amount: row.dispensed_amount,
  verdict: row.verdict as Static<typeof JournalTransaction>['verdict'],
  reason: row.reason,
  lines: { from: row.line_from, to: row.line_to },
  evidence: row.evidence,
  cut: row.cut,
});

export const uploadedOf = (journal: ReceivedJournal): Static<typeof JournalUpload>['journal'] => ({
  id: journal.id,
  file_name: journal.file_name,
  atm_id: journal.atm_id,
  day: journal.day,
  family: journal.family,
  sha256: journal.sha256,
  line_count: journal.line_count,
  transaction_count: journal.transactions,
  anomaly_kinds: journal.anomaly_kinds as Item['anomaly_kinds'],
  source: journal.source,
});
