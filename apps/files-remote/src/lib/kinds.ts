// The seven file kinds differ only in data: route, the kind the API serves, the key of the detail
// rows, the name column's heading, and whether the list is paginated.
import { fileKindScreens, type FileKindName } from '@ejdesk/api-client';

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

const textKind = (title: string, api: FileKindName): FileKind => ({
  path: fileKindScreens[api],
  title,
  api,
  rowsKey: 'text_data',
  responseKey: 'Response Code',
  nameHeader: 'Text File Name',
  paginated: true,
});
const listedKind = (title: string, api: FileKindName, rowsKey: FileKind['rowsKey'], label: string): FileKind => ({
  path: fileKindScreens[api],
  title,
  api,
  rowsKey,
  responseKey: 'Response',
  nameHeader: `${label} File Name`,
  paginated: false,
});

export const fileKinds: readonly FileKind[] = [
  textKind('Text Email Data', 'text'),
  textKind('Missing Data', 'missing'),
  textKind('Missing TXN Data', 'missing_txn'),
  textKind('Between Successful Data', 'between_successful'),
  listedKind('Excel Email Data', 'excel', 'excel_data', 'Excel'),
  listedKind('PDF Email Data', 'pdf', 'pdf_data', 'PDF'),
  listedKind('Other Format Email Data', 'other', 'other_format_data', 'Other'),
];
