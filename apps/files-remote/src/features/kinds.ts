// The seven file kinds differ only in data: route, API path, the key of the detail rows, the name
// column's heading, and whether the list is paginated.

export interface FileKind {
  path: string;
  title: string;
  api: string;
  rowsKey: 'text_data' | 'excel_data' | 'pdf_data' | 'other_format_data';
  /** The last labelled key of a row: 'Response Code' for text files, 'Response' for the others. */
  responseKey: 'Response Code' | 'Response';
  nameHeader: string;
  paginated: boolean;
}

const textKind = (path: string, title: string, api: string): FileKind => ({
  path, title, api, rowsKey: 'text_data', responseKey: 'Response Code', nameHeader: 'Text File Name', paginated: true,
});
const listedKind = (path: string, title: string, api: string, rowsKey: FileKind['rowsKey'], label: string): FileKind => ({
  path, title, api, rowsKey, responseKey: 'Response', nameHeader: `${label} File Name`, paginated: false,
});

export const fileKinds: readonly FileKind[] = [
  textKind('/text-email-data', 'Text Email Data', '/scrape/text/email/data'),
  textKind('/missing-data', 'Missing Data', '/scrape/text/missing/data'),
  textKind('/missing-txn-data', 'Missing TXN Data', '/scrape/text/missing/txn/data'),
  textKind('/between-successful-data', 'Between Successful Data', '/scrape/text/successful/between/data'),
  listedKind('/excel-email-data', 'Excel Email Data', '/scrape/excel/email/data', 'excel_data', 'Excel'),
  listedKind('/pdf-email-data', 'PDF Email Data', '/scrape/pdf/email/data', 'pdf_data', 'PDF'),
  listedKind('/other-email-data', 'Other Format Email Data', '/scrape/other/email/data', 'other_format_data', 'Other'),
];
