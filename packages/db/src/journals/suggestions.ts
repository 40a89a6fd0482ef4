// The outcome a journal's verdict suggests for a dispute, applied as an operator applies a status
// (history event and audit entry, naming the journal's file), never over an operator's status.
import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../client.ts';
import { type DisputeOutcome, type DisputeStatus, type DisputeTarget, type Operator, pickedDisputes, setDisputeStatus } from '../disputes/index.ts';

export interface Suggestion {
  status: DisputeStatus;
  outcome: DisputeOutcome;
  /** What to do, in the operators' words. */
  advice: string;
}

const suggestions: Record<string, Suggestion> = {
  not_dispensed: { status: 'resolved', outcome: 'credited', advice: 'credit the customer' },
  retracted: { status: 'resolved', outcome: 'credited', advice: 'credit the customer' },
  partial: { status: 'resolved', outcome: 'credited', advice: 'credit the difference' },
  dispensed: { status: 'resolved', outcome: 'rejected', advice: 'reject, with the journal as evidence' },
  reversed: { status: 'resolved', outcome: 'other', advice: 'already reversed by the host' },
};

/** The status a verdict suggests; null for indeterminate (a person decides) and for no verdict. */
export const suggestionOf = (verdict: string | null): Suggestion | null => (verdict ? (suggestions[verdict] ?? null) : null);

export interface SuggestionResult {
  /** The disputes whose status the suggestion set. */
  applied: { disputeId: number; status: DisputeStatus; outcome: DisputeOutcome }[];
  /** The others, and why: an operator's status, no verdict (or indeterminate), already so. */
  skipped: { disputeId: number; why: 'operator' | 'no_suggestion' | 'unchanged' }[];
}

const verdictWords = (verdict: string) => verdict.replace('_', ' ');

/**
 * Apply each dispute's suggested outcome (the ids, or those `where` selects). Disputes sharing a
 * suggestion and a journal file are changed together, through setDisputeStatus (one audit entry
 * each group, a history event each dispute), the note naming the file, the verdict and the lines.
 */
export async function applySuggestion(db: Db, target: DisputeTarget, by: Operator, today: string): Promise<SuggestionResult> {
  const picked = pickedDisputes(target);
  const rows = await queryRows<{
    id: number;
    status: DisputeStatus;
    outcome: DisputeOutcome | null;
    status_source: string;
    verdict: string | null;
    file_name: string | null;
    requested_amount: string | null;
    dispensed_amount: string | null;
  }>(
    db,
    sql`select d.id::float8 as id, d.status, d.outcome, d.status_source, e.verdict, j.file_name,
               t.requested_amount::text as requested_amount, e.dispensed_amount::text as dispensed_amount
        from disputes d
        left join dispute_evidence e on e.dispute_id = d.id
        left join journal_transactions t on t.id = e.transaction_id
        left join journals j on j.id = t.journal_id
        where d.id in (${picked}) order by d.id`,
  );
  const result: SuggestionResult = { applied: [], skipped: [] };
  const groups = new Map<string, { suggestion: Suggestion; note: string; ids: number[] }>();
  for (const row of rows) {
    const suggestion = suggestionOf(row.verdict);
    if (row.status_source === 'operator') result.skipped.push({ disputeId: row.id, why: 'operator' });
    else if (!suggestion || !row.file_name) result.skipped.push({ disputeId: row.id, why: 'no_suggestion' });
    else if (row.status === suggestion.status && row.outcome === suggestion.outcome) result.skipped.push({ disputeId: row.id, why: 'unchanged' });
    else {
      const difference =
        row.verdict === 'partial' && row.requested_amount !== null && row.dispensed_amount !== null
          ? ` ${(Number(row.requested_amount) - Number(row.dispensed_amount)).toFixed(2)} (requested ${row.requested_amount}, dispensed ${row.dispensed_amount})`
          : '';
      const note = `Journal ${row.file_name}: ${verdictWords(row.verdict!)}; ${suggestion.advice}${difference}`;
      // One change per file and verdict (a partial one's difference is its own).
      const key = [suggestion.status, suggestion.outcome, note].join('\u001f');
      const group = groups.get(key) ?? { suggestion, note, ids: [] };
      group.ids.push(row.id);
      groups.set(key, group);
    }
  }
  for (const group of groups.values()) {
    // Re-checked under setDisputeStatus's lock: an operator's status set meanwhile is kept.
    const where = sql`select id from disputes where id = any(${sql.param(group.ids)}::bigint[]) and status_source <> 'operator'`;
    const { ids: changed } = await setDisputeStatus(
      db,
      { where },
      { status: group.suggestion.status, outcome: group.suggestion.outcome, note: group.note },
      by,
      today,
    );
    const done = new Set(changed);
    for (const id of group.ids) {
      if (done.has(id)) result.applied.push({ disputeId: id, status: group.suggestion.status, outcome: group.suggestion.outcome });
      else result.skipped.push({ disputeId: id, why: 'operator' });
    }
  }
  return result;
}
