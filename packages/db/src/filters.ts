// Pieces every list query shares: case-insensitive substring filters (served by trigram indexes),
// whole-day date ranges, and paging.
import { and, type AnyColumn, gte, lt, sql, type SQL } from 'drizzle-orm';

/** ILIKE '%text%' with the user's % _ and \ taken literally. */
export function containsText(column: AnyColumn | SQL, text: string | undefined): SQL | undefined {
  if (!text) return undefined;
  return sql`${column} ilike ${`%${likeEscaped(text)}%`}`;
}

/** The user's text with LIKE's % _ and \ taken literally. */
export const likeEscaped = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** LIKE over a lower-cased copy of a column: the same match as ILIKE, cheaper per row. */
export const foldedContains = (folded: AnyColumn, text: string): SQL => sql`${folded} like lower(${`%${likeEscaped(text)}%`})`;

/** YYYY-MM-DD of an instant, in UTC. */
export const isoDay = (instant: Date) => instant.toISOString().slice(0, 10);

/** The instant the UTC day after YYYY-MM-DD begins. */
export function nextUtcDay(isoDate: string): Date {
  const day = new Date(`${isoDate}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() + 1);
  return day;
}

/** from and to are YYYY-MM-DD, both inclusive, as whole UTC days. */
export function withinDays(column: AnyColumn, from: string | undefined, to: string | undefined): SQL | undefined {
  return and(from ? gte(column, new Date(`${from}T00:00:00Z`)) : undefined, to ? lt(column, nextUtcDay(to)) : undefined);
}

export interface Page {
  page: number;
  pageSize: number;
}

export interface PageOf<T> {
  count: number;
  rows: T[];
  /** False when the count is the planner's estimate of a broad match (counts/counts.ts); exact when absent. */
  exact?: boolean;
}
