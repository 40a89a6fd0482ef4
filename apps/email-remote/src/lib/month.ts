// The month picker speaks YYYY-MM (input type="month"); the API takes YYYY-Mon (2025-Jan).
import { monthAbbreviations } from '@ejdesk/ui';

export function currentMonth(now = new Date()): string {
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}`;
}

export function toApiMonth(month: string): string | null {
  const match = /^(\d{4})-(\d{2})$/.exec(month);
  const name = match ? monthAbbreviations[Number(match[2]) - 1] : undefined;
  return match && name ? `${match[1]}-${name}` : null;
}

/** The first and last day (YYYY-MM-DD) of a YYYY-MM month, or null. */
export function monthDays(month: string): { first: string; last: string } | null {
  const match = /^(\d{4})-(\d{2})$/.exec(month);
  if (!match) return null;
  const last = new Date(Date.UTC(Number(match[1]), Number(match[2]), 0)).getUTCDate();
  return { first: `${month}-01`, last: `${month}-${String(last).padStart(2, '0')}` };
}
