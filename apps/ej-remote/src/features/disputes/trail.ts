// The list a dispute was opened from, so its page can go to the previous and next dispute of that
// list and back to it: the list's query (filters, order, page) and its page's disputes in order,
// kept per browser tab (sessionStorage). At a page's edge the next page is read with the same query.
import { useCallback, useEffect, useState } from 'react';
import { getEjPage } from '@ejdesk/api-client';

interface Trail {
  /** The list's query string ('?tat=breached&page=2'), as in its URL. */
  search: string;
  page: number;
  totalPages: number;
  /** The disputes of the page's rows, in the list's order, each once. */
  ids: number[];
}

const storageKey = 'ejdesk.dispute-trail';

export function keepTrail(trail: Trail) {
  try {
    sessionStorage.setItem(storageKey, JSON.stringify(trail));
  } catch {
    // Storage full or refused: the dispute page then offers only the way back.
  }
}

function readTrail(): Trail | null {
  try {
    const trail = JSON.parse(sessionStorage.getItem(storageKey) ?? 'null') as Trail | null;
    return trail && Array.isArray(trail.ids) && typeof trail.search === 'string' ? trail : null;
  } catch {
    return null;
  }
}

/** The distinct disputes of a page's rows, in order. */
export const disputesOf = (rows: { dispute_id: number | null }[]) => [...new Set(rows.flatMap((r) => (r.dispute_id === null ? [] : [r.dispute_id])))];

/** The list's page `page` read with its query: its disputes. */
async function pageOfTrail(trail: Trail, page: number): Promise<Trail> {
  const params = Object.fromEntries(new URLSearchParams(trail.search));
  const answer = await getEjPage({ ...params, page });
  const totalPages = answer.total_pages || trail.totalPages;
  return { search: `?${new URLSearchParams({ ...params, page: String(page) }).toString()}`, page, totalPages, ids: disputesOf(answer.results) };
}

export interface TrailMoves {
  /** Where Back to the list goes: the list as it was left. */
  back: string;
  /** The dispute's place in its list's page, in words ('3 of 10 on page 2'), when it is in it. */
  place: string | null;
  hasPrevious: boolean;
  hasNext: boolean;
  /** The previous or next dispute's id (reading the neighbouring page at an edge), or null. */
  step: (by: -1 | 1) => Promise<number | null>;
}

export function useTrail(id: number): TrailMoves {
  const [trail, setTrail] = useState<Trail | null>(readTrail);
  // Another tab or a new list opened since: read again when the dispute changes.
  useEffect(() => setTrail(readTrail()), [id]);
  const at = trail ? trail.ids.indexOf(id) : -1;
  const step = useCallback(
    async (by: -1 | 1) => {
      if (!trail || at < 0) return null;
      const to = at + by;
      if (to >= 0 && to < trail.ids.length) return trail.ids[to]!;
      // Forward past the page's end: the page read again first. A dispute saved out of the filter
      // has left it, and the next page's first has moved up into it: that one is next.
      if (by > 0) {
        const again = await pageOfTrail(trail, trail.page);
        const movedUp = again.ids.filter((id) => !trail.ids.includes(id));
        if (movedUp.length) {
          keepTrail(again);
          setTrail(again);
          return movedUp[0]!;
        }
      }
      const page = trail.page + by;
      if (page < 1 || page > trail.totalPages) return null;
      const next = await pageOfTrail(trail, page);
      if (next.ids.length === 0) return null;
      keepTrail(next);
      setTrail(next);
      return by > 0 ? next.ids[0]! : next.ids[next.ids.length - 1]!;
    },
    [trail, at],
  );
  return {
    back: `/email${trail?.search ?? ''}`,
    place: trail && at >= 0 ? `${at + 1} of ${trail.ids.length} on page ${trail.page} of ${trail.totalPages}` : null,
    hasPrevious: !!trail && at >= 0 && (at > 0 || trail.page > 1),
    hasNext: !!trail && at >= 0 && (at < trail.ids.length - 1 || trail.page < trail.totalPages),
    step,
  };
}
