// Journal evidence in the operators' words: a verdict with a sign and its name (never colour
// alone), a journal's anomalies, and how a dispute found its transaction.
import { verdictLabels, type AnomalyKind, type MatchKind, type Verdict } from '@ejdesk/api-client';
import styles from './journals.module.css';

/** A sign per verdict, beside its word: a reader of the page in grey sees the same. */
const signs: Record<Verdict, string> = {
  dispensed: '✓',
  partial: '◐',
  not_dispensed: '✗',
  retracted: '↺',
  reversed: '⇄',
  indeterminate: '?',
};

export const verdictText = (verdict: Verdict | null | undefined) => (verdict ? verdictLabels[verdict] : 'No verdict');

export function VerdictBadge({ verdict }: { verdict: Verdict | null }) {
  return (
    <span className={styles.verdict} data-verdict={verdict ?? 'none'}>
      <span aria-hidden="true">{verdict ? signs[verdict] : '–'}</span>
      <span>{verdictText(verdict)}</span>
    </span>
  );
}

export const anomalyLabels: Record<AnomalyKind, string> = {
  dispense_failure: 'Dispense failure',
  retract: 'Notes retracted',
  restart: 'Restart mid-transaction',
  cut: 'Ends mid-transaction',
  contradiction: 'Lines contradict',
  gap: 'Gap in the journal',
};

export const matchLabels: Record<MatchKind, string> = {
  rrn: 'by its RRN',
  stan: 'by its STAN',
  serial: "by the journal's serial number",
  card_amount_day: "by the card's last four digits, the amount and the day",
  ambiguous: 'several transactions fit: no verdict is guessed',
  none: 'no transaction found in the journals received',
};
