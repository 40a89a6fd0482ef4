import { Type } from 'typebox';
import { Timestamp } from './common.ts';
import { EstimatedPageQuery, FilterDate, FilterText, Ordering } from './lists.ts';

export const DataFile = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  subject_name: Type.String(),
  create_at: Timestamp,
  update_at: Timestamp,
});

/** The unpaginated Excel / PDF / other lists show no subject. */
export const ListedDataFile = Type.Object({ id: Type.Integer(), name: Type.String(), create_at: Timestamp, update_at: Timestamp });

export const DataFileQuery = Type.Object(
  { ...EstimatedPageQuery, name: FilterText, subject_name: FilterText, create_at_after: FilterDate, create_at_before: FilterDate, ordering: Ordering },
  { additionalProperties: false },
);

/** The display-labelled keys of the original, in order; the last is 'Response Code' or 'Response'. */
const labelledKeys = [
  'ID',
  'ATM ID',
  'CARD No.',
  'TXT No.',
  'TXT Date.(DD/MM/YY)',
  'TXT Amt.',
  'Dispute Amt.',
  'Overage',
  'MSP Remarks',
  'MSP RefNo.',
  'Short Desc.',
  'EJ_Error',
  'Complaint Date/Received from MSP(DD/MM/YY)',
  'Short_Description',
  'Mail Received From',
  'MailSubject',
] as const;

const LabelledRow = (responseKey: string) =>
  Type.Object(
    Object.fromEntries([
      ...labelledKeys.map((key) => [key, key === 'ID' ? Type.Integer() : Type.Union([Type.String(), Type.Null()])]),
      [responseKey, Type.String()],
      // The dispute the row names (its ATM ID and transaction), if one does: beyond the original's keys.
      ['dispute_id', Type.Union([Type.Integer(), Type.Null()])],
    ]),
  );

/** A file's rows, and the email it came in (null when the email was removed). */
export const DataFileDetail = (rowsKey: string, responseKey: string) =>
  Type.Object({
    ...DataFile.properties,
    email_id: Type.Union([Type.Integer(), Type.Null()]),
    email_subject: Type.Union([Type.String(), Type.Null()]),
    [rowsKey]: Type.Array(LabelledRow(responseKey)),
  });
