// Which disputes a body names: its ids, or every record the EJ table's filters match.
import { disputesMatching, type DisputeTarget } from '@ejdesk/db';
import { ejFiltersOf } from '../../lib/ej-filters.ts';

export type TargetBody = { ids?: number[] | undefined; filters?: Parameters<typeof ejFiltersOf>[1] | undefined };

/** The body's disputes: its ids, or its filters read as the EJ table reads them; a detail when it gives both or neither. */
export function targetOf(body: TargetBody, day: string, me: number): DisputeTarget | { detail: string } {
  const { ids, filters } = body;
  if ((ids === undefined) === (filters === undefined)) return { detail: 'body: give either ids or filters, not both.' };
  return ids ? { ids } : { where: disputesMatching(ejFiltersOf('dispute', filters!, day, me)) };
}
