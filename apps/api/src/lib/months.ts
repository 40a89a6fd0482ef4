// The dashboard's month: year, a dash, an English three-letter month (2025-Jan), as UTC bounds.
// Years 0001-9998 only: the bounds (and the day after) must be dates PostgreSQL and JavaScript share.
const months = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

const utcMonthStart = (year: number, month: number) => {
  const date = new Date(Date.UTC(2000, month, 1));
  date.setUTCFullYear(year + Math.floor(month / 12), month % 12, 1); // Date.UTC maps years 0-99 to 1900-1999
  return date;
};

/** The 400's detail for a query parameter that is not such a month. */
export const monthProblem = (name: string) => `query '${name}': must be a month as YYYY-Mon (years 0001-9998), for example 2025-Jan.`;

export function monthRange(value: string): { from: Date; to: Date } | null {
  const match = /^(\d{4})-([A-Za-z]{3})$/.exec(value.trim());
  const month = match ? months.indexOf(match[2]!.toLowerCase()) : -1;
  const year = match ? Number(match[1]) : 0;
  if (!match || month < 0 || year < 1 || year > 9998) return null;
  return { from: utcMonthStart(year, month), to: utcMonthStart(year, month + 1) };
}
