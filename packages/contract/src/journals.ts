// The words of journal evidence both sides share: what happened to a withdrawal's cash, how a
// dispute was tied to its journal transaction, a journal's anomalies, and what each verdict
// suggests for the dispute. Plain values (no TypeBox): the console reads them at run time.

/** What happened to the cash of one withdrawal, as the journal shows it (docs/journals.md). */
export const verdicts = ['dispensed', 'partial', 'not_dispensed', 'retracted', 'reversed', 'indeterminate'] as const;
export type Verdict = (typeof verdicts)[number];

/** Each verdict as operators read it. */
export const verdictLabels: Record<Verdict, string> = {
  dispensed: 'Dispensed',
  partial: 'Partly dispensed',
  not_dispensed: 'Not dispensed',
  retracted: 'Retracted',
  reversed: 'Reversed',
  indeterminate: 'Indeterminate',
};

/**
 * How a dispute found its transaction: by the number the complaint carries (RRN, STAN, the
 * journal's serial), else by card, amount and day; several candidates, or none.
 */
export const matchKinds = ['rrn', 'stan', 'serial', 'card_amount_day', 'ambiguous', 'none'] as const;
export type MatchKind = (typeof matchKinds)[number];

/** What a journal shows that an operator may want to see first. */
export const anomalyKinds = ['dispense_failure', 'retract', 'restart', 'cut', 'contradiction', 'gap'] as const;
export type AnomalyKind = (typeof anomalyKinds)[number];

/** Where a journal came from. */
export const journalSources = ['mail', 'upload', 'folder'] as const;
export type JournalSource = (typeof journalSources)[number];
