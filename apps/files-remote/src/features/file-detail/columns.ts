// The 16 columns of a file's detail table (docs/screens.md), from the API's labelled keys; the
// same list drives the table and both exports.
import type { LabelledRow } from '@ejdesk/api-client';
import type { ExportColumn } from '@ejdesk/export';
import type { FileKind } from '../../lib/kinds.ts';

const key = (name: string) => (row: LabelledRow) => row[name] ?? null;

export function detailColumns(kind: FileKind): ExportColumn<LabelledRow>[] {
  return [
    { header: 'ID', value: key('ID') },
    { header: 'ATM ID', value: key('ATM ID') },
    { header: 'CARD No.', value: key('CARD No.') },
    { header: 'TXT No.', value: key('TXT No.') },
    { header: 'TXT Date (DD/MM/YY)', value: key('TXT Date.(DD/MM/YY)'), format: 'date' },
    { header: 'TXT Amt.', value: key('TXT Amt.'), format: 'amount' },
    { header: 'Dispute Amt.', value: key('Dispute Amt.'), format: 'amount' },
    { header: 'Overage', value: key('Overage'), format: 'amount' },
    { header: 'MSP Remarks', value: key('MSP Remarks') },
    { header: 'MSP RefNo.', value: key('MSP RefNo.') },
    { header: 'Short Desc. EJ_Error', value: (row) => [row['Short Desc.'], row['EJ_Error']].filter(Boolean).join(' - ') },
    { header: 'Complaint Date/Received from MSP (DD/MM/YY)', value: key('Complaint Date/Received from MSP(DD/MM/YY)'), format: 'date' },
    { header: 'Short_Description', value: key('Short_Description') },
    { header: 'Mail Received From', value: key('Mail Received From') },
    { header: 'MailSubject', value: key('MailSubject') },
    { header: 'Response Code', value: key(kind.responseKey) },
  ];
}

export const amountHeaders = new Set(['TXT Amt.', 'Dispute Amt.', 'Overage']);
