// Operators' formats: list timestamps as local date-time, detail dates as DD/MM/YY, amounts with two
// decimals and grouping.

export function formatDateTime(value: string | null | undefined): string {
  if (!value) return '';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : date.toLocaleString();
}

/** DD/MM/YY from an ISO date (YYYY-MM-DD...), without time-zone shifts. */
export function formatShortDate(value: string | null | undefined): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(value ?? '');
  return match ? `${match[3]}/${match[2]}/${match[1]!.slice(2)}` : (value ?? '');
}

const amountFormat = new Intl.NumberFormat(undefined, { minimumFractionDigits: 2, maximumFractionDigits: 2 });

export function formatAmount(value: string | number | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const n = Number(value);
  return Number.isFinite(n) ? amountFormat.format(n) : String(value);
}
