// The dashboard's month: year, a dash, an English three-letter month (2025-Jan), as UTC bounds.
const months = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

export function monthRange(value: string): { from: Date; to: Date } | null {
  const match = /^(\d{4})-([A-Za-z]{3})$/.exec(value.trim());
  const month = match ? months.indexOf(match[2]!.toLowerCase()) : -1;
  if (!match || month < 0) return null;
  const year = Number(match[1]);
  return { from: new Date(Date.UTC(year, month, 1)), to: new Date(Date.UTC(year, month + 1, 1)) };
}
