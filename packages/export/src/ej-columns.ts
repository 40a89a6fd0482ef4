// The EJ error columns (/email, /overage, /successing), shared by the screens and the
// server's streamed export so both write the same headers, in the same order.
import type { Answer } from '@ejdesk/contract';
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

/** /email ends with Mail Subject; /overage with 'Name of File'; /successing with 'Name Of File'. */
export function ejColumnsFor(kind: EjListKind): ExportColumn<EjRecord>[] {
  if (kind === 'dispute') return ejColumns;
  return [...ejColumns.slice(0, -1), { header: kind === 'overage' ? 'Name of File' : 'Name Of File', value: 'file_name' }];
}
