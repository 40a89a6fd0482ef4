// File and sheet names operators know from the original (docs/screens.md), in one place.
export const exportFiles = {
  ejError: { csv: 'ej_error.csv', xlsx: 'ej_error.xlsx', sheet: 'AttendanceData' },
  overage: { csv: 'overage.csv', xlsx: 'overage.xlsx', sheet: 'Overage' },
  succeeding: { csv: 'successing.csv', xlsx: 'successing.xlsx', sheet: 'Successing' },
  emailData: { csv: 'email_data.csv', xlsx: 'email_data.xlsx', sheet: 'Email Data' },
  emailDetails: { csv: 'email_details.csv', xlsx: 'email_details.xlsx', sheet: 'EmailData' },
  textData: { csv: 'text_data.csv', xlsx: 'text_data.xlsx', sheet: 'TextData' },
} as const;

/** Said instead of downloading a file that would hold only its header row. */
export const nothingToExport = 'Nothing to export: no rows match the filters.';
