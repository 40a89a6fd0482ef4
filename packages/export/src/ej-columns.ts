// The EJ error columns (/email, /overage, /successing), shared by the screens and the
// server's streamed export so both write the same headers, in the same order.
import type { Answer } from '@ejdesk/contract';
import type { DisputeRecord } from '@ejdesk/contract/schemas/disputes.ts';
import type { EjRecord as EjRecordSchema } from '@ejdesk/contract/schemas/ej-records.ts';
import type { ExportColumn } from './cells.ts';

/** An EJ record as the API sends it (its schema in @ejdesk/contract); overage and succeeding rows name their file. */
export type EjRecord = Answer<typeof EjRecordSchema> & { file_name?: string };

export type EjListKind = 'dispute' | 'overage' | 'succeeding';

/** 'Short Desc. EJ_Error' shows the short description followed by the EJ error. */
export const shortDescAndError = (r: Pick<EjRecord, 'short_desc_ej_error' | 'ej_error'>) => [r.short_desc_ej_error, r.ej_error].filter(Boolean).join(' - ');

/** Amounts go out as numbers so spreadsheets can add them up. */
const amount = (value: string | null) => (value === null || value === '' ? null : Number(value));

export const ejColumns: ExportColumn<EjRecord>[] = [
  { header: 'ATM ID', value: 'atm_id' },
  { header: 'Card No.', value: 'card_no' },
  { header: 'TXT No.', value: 'txt_no' },
  { header: 'Transaction Date', value: 'transaction_date', format: 'date' },
  { header: 'Transaction Amt.', value: (r) => amount(r.transaction_amt) },
  { header: 'Dispute Amt.', value: (r) => amount(r.dispute_amt) },
  { header: 'Overage', value: (r) => amount(r.overage) },
  { header: 'MSP Remarks', value: 'msp_remarks' },
  { header: 'MSP RefNo.', value: 'msp_ref_no' },
  { header: 'Short Desc. EJ_Error', value: shortDescAndError },
  { header: 'Complaint Date', value: 'complaint_date', format: 'date' },
  { header: 'Short Description', value: 'short_description' },
  { header: 'Mail Received From', value: 'mail_received_from' },
  { header: 'Mail Subject', value: 'mail_subject' },
];

type Clock = Pick<
  Answer<typeof DisputeRecord>,
  'status' | 'outcome' | 'due_date' | 'age_days' | 'overdue_days' | 'penalty' | 'currency' | 'owner' | 'follow_up_on'
>;
/** A record with its dispute's clock (a dispute record); no clock when the record has no dispute. */
export type ClockedRecord = EjRecord & Partial<Clock>;

export const disputeStatusLabels = { open: 'Open', awaiting_msp: 'Awaiting MSP', resolved: 'Resolved' } as const;

/** 'Open', 'Awaiting MSP', 'Resolved (credited)'; nothing for a record with no dispute. */
export const disputeStatusText = (clock: Partial<Pick<Clock, 'status' | 'outcome'>>) =>
  clock.status ? `${disputeStatusLabels[clock.status]}${clock.outcome ? ` (${clock.outcome})` : ''}` : '';

/** The days past the due date (a resolved dispute's when it was resolved); none without a dispute. */
const daysLate = (clock: Partial<Pick<Clock, 'status' | 'overdue_days'>>) => (clock.status ? (clock.overdue_days ?? 0) : null);

/**
 * The dispute's clock, right after ATM ID: what an operator works by. The same columns on the
 * screen and in its exports (on the screen the penalty carries its currency).
 */
export const clockColumns: ExportColumn<ClockedRecord>[] = [
  { header: 'Status', value: disputeStatusText },
  { header: 'Due Date', value: 'due_date', format: 'date' },
  { header: 'Days Late', value: daysLate },
  { header: 'Age (days)', value: (r) => r.age_days ?? null },
  { header: 'Penalty', value: (r) => (r.status ? amount(r.penalty ?? null) : null) },
  { header: 'Currency', value: (r) => (r.status ? r.currency : null) },
  { header: 'Owner', value: (r) => r.owner ?? null },
  { header: 'Follow Up', value: (r) => r.follow_up_on ?? null, format: 'date' },
];

/**
 * /email: ATM ID, the clock, then the record, ending with Mail Subject; /overage ends with 'Name
 * of File' and /successing with 'Name Of File'.
 */
export function ejColumnsFor(kind: EjListKind): ExportColumn<ClockedRecord>[] {
  if (kind === 'dispute') return [ejColumns[0]!, ...clockColumns, ...ejColumns.slice(1)];
  return [...ejColumns.slice(0, -1), { header: kind === 'overage' ? 'Name of File' : 'Name Of File', value: 'file_name' }];
}
