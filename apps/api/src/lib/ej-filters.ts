// The EJ table's query as the database's filters: one reading for the table, its export and a
// bulk status change of "all N matching", so all three pick the same records.
import type { EjFilters, TatFilter } from '@ejdesk/db';

interface EjFilterQuery {
  start_date?: string | undefined;
  end_date?: string | undefined;
  atm_id?: string | undefined;
  bank_name?: string | undefined;
  card_no?: string | undefined;
  mail_subject?: string | undefined;
  mail_received_from?: string | undefined;
  tat?: TatFilter | undefined;
  age_from?: number | undefined;
  age_to?: number | undefined;
  verdict?: string | undefined;
  owner?: string | undefined;
  follow_up?: 'today' | 'due' | undefined;
}

/**
 * `today` is the clock's day (the quick filters, ages and follow-ups are counted to it); `me` is
 * the caller's account (owner=me).
 */
export const ejFiltersOf = (kind: EjFilters['kind'], q: EjFilterQuery, today: string, me: number): EjFilters => ({
  kind,
  startDate: q.start_date,
  endDate: q.end_date,
  atmId: q.atm_id?.trim(),
  bankName: q.bank_name,
  cardNo: q.card_no?.trim(),
  mailSubject: q.mail_subject,
  mailReceivedFrom: q.mail_received_from,
  tat: q.tat,
  ageFrom: q.age_from,
  ageTo: q.age_to,
  verdict: q.verdict,
  ownerId: q.owner === undefined ? undefined : q.owner === 'me' ? me : Number(q.owner),
  followUp: q.follow_up,
  today,
});

/** The 400's detail when the clock's or the journal's filters are asked of records that have neither. */
export const clockFiltersProblem = (kind: EjFilters['kind'], q: EjFilterQuery): string | null =>
  kind !== 'dispute' &&
  (q.tat !== undefined || q.age_from !== undefined || q.age_to !== undefined || q.verdict !== undefined || q.owner !== undefined || q.follow_up !== undefined)
    ? `query: tat, age_from, age_to, verdict, owner and follow_up filter dispute records only, not ${kind} records.`
    : null;
