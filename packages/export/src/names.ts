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

/** The filters a file name carries, in this order (the list's query parameters). */
const namedFilters = [
  'tat',
  'verdict',
  'start_date',
  'end_date',
  'age_from',
  'age_to',
  'atm_id',
  'bank_name',
  'card_no',
  'mail_subject',
  'mail_received_from',
] as const;

/**
 * The export's file name with what it holds: `ej_error_breached_2026-11-01_atm_id-SNB0077.csv`,
 * or `ej_error_12_ticked.csv`. Only letters, digits, '.', '_' and '-' (any other run becomes one
 * '-'), at most 120 characters: a name every system saves as it is.
 */
export function exportFileName(name: string, filters: Record<string, string | number | undefined | null>, ticked?: number): string {
  const dot = name.lastIndexOf('.');
  const [base, extension] = [name.slice(0, dot), name.slice(dot)];
  const parts = namedFilters.flatMap((key) => {
    const value = filters[key];
    if (value === undefined || value === null || value === '') return [];
    // Accents dropped (Ü is U), then any other run of characters one '-'.
    const safe = String(value)
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .replace(/[^A-Za-z0-9.-]+/g, '-')
      .replace(/^-+|-+$/g, '');
    if (!safe) return [];
    return key === 'tat' || key === 'verdict' || key === 'start_date' || key === 'end_date' ? [safe] : [`${key}-${safe}`];
  });
  if (ticked !== undefined) parts.unshift(`${ticked}_ticked`);
  return `${[base, ...parts].join('_').slice(0, 120 - extension.length)}${extension}`;
}
