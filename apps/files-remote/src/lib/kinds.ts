// The seven file kinds differ only in data: route, the kind the API serves, the key of the detail
// rows, the name column's heading, and whether the list is paginated.
import type { FileKindName } from '@ejdesk/api-client';

export interface FileKind {
  path: string;
  title: string;
  /** Which of the API's file kinds (the client knows its URL). */
  api: FileKindName;
  rowsKey: 'text_data' | 'excel_data' | 'pdf_data' | 'other_format_data';
  /** The last labelled key of a row: 'Response Code' for text files, 'Response' for the others. */
  responseKey: 'Response Code' | 'Response';
  nameHeader: string;
  paginated: boolean;
}

const textKind = (path: string, title: string, api: FileKindName): FileKind => ({
  path,
  title,
  api,
  rowsKey: 'text_data',
  responseKey: 'Response Code',
  nameHeader: 'Text File Name',
  paginated: true,
});
const listedKind = (path: string, title: string, api: FileKindName, rowsKey: FileKind['rowsKey'], label: string): FileKind => ({
  path,
  title,
  api,
  rowsKey,
  responseKey: 'Response',
  nameHeader: `${label} File Name`,
  paginated: false,
});

export const fileKinds: readonly FileKind[] = [
  textKind('/text-email-data', 'Text Email Data', 'text'),
  textKind('/missing-data', 'Missing Data', 'missing'),
  textKind('/missing-txn-data', 'Missing TXN Data', 'missing_txn'),
  textKind('/between-successful-data', 'Between Successful Data', 'between_successful'),
  listedKind('/excel-email-data', 'Excel Email Data', 'excel', 'excel_data', 'Excel'),
  listedKind('/pdf-email-data', 'PDF Email Data', 'pdf', 'pdf_data', 'PDF'),
  listedKind('/other-email-data', 'Other Format Email Data', 'other', 'other_format_data', 'Other'),
];
