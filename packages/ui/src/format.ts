// Operators' formats, one date style on every screen: dates DD/MM/YY, timestamps DD/MM/YY HH:mm:ss
// in local time (24-hour), amounts with two decimals and grouping.

const two = (n: number) => String(n).padStart(2, '0');

export function formatDateTime(value: string | null | undefined): string {
  if (!value) return '';
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return value;
  return `${two(d.getDate())}/${two(d.getMonth() + 1)}/${two(d.getFullYear() % 100)} ${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
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

const countFormat = new Intl.NumberFormat(undefined, { maximumFractionDigits: 0 });

const aboutFormat = new Intl.NumberFormat('en-US', { notation: 'compact', compactDisplay: 'long', maximumFractionDigits: 1 });

/** An estimated count in words: "about 1.2 million", "about 240 thousand". */
export function formatAboutCount(value: number): string {
  return `about ${aboutFormat.format(value)}`;
}

/** A count with the same grouping as the amounts ("15,908"). */
export function formatCount(value: number | null | undefined): string {
  return value === null || value === undefined ? '' : countFormat.format(value);
}

const isoDate = /^\d{4}-\d{2}-\d{2}$/;
const isoTimestamp = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/** A free-form cell (the senders' JSON data): ISO dates and timestamps in the one date style, the rest as it is. */
export function formatLoose(value: string): string {
  if (isoDate.test(value)) return formatShortDate(value);
  if (isoTimestamp.test(value)) return formatDateTime(value);
  return value;
}

/** English month abbreviations: the API's months (2026-Nov) and the chips' ('Nov 2026'). */
export const monthAbbreviations = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

/** 'Nov 2026' from a month picker's 2026-11; anything else as it is. */
export function formatMonth(value: string): string {
  const match = /^(\d{4})-(\d{2})$/.exec(value);
  const name = match ? monthAbbreviations[Number(match[2]) - 1] : undefined;
  return match && name ? `${name} ${match[1]}` : value;
}
