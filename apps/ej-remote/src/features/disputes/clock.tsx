// A dispute's clock as operators read it: its status (with the outcome once resolved), the due date,
// the age in days and the penalty so far; a breached one is marked, in words as well as colour.
import type { DisputeRecord, DisputeStatus } from '@ejdesk/api-client';
import { disputeStatusLabels, disputeStatusText } from '@ejdesk/export';
import { formatAmount, formatShortDate } from '@ejdesk/ui';
import styles from './disputes.module.css';

export const statusLabels: Record<DisputeStatus, string> = disputeStatusLabels;
export const outcomeLabels = { credited: 'credited', rejected: 'rejected', other: 'other' } as const;

type Clock = Pick<DisputeRecord, 'status' | 'outcome' | 'due_date' | 'overdue_days' | 'penalty' | 'currency' | 'due_today'>;

export const statusText = (clock: Pick<Clock, 'status' | 'outcome'>) => disputeStatusText(clock);

/** Past its due date and not resolved. */
const isBreached = (clock: Clock) => clock.status !== 'resolved' && clock.overdue_days > 0;

/** The chip's colour: the state, a resolved one by its outcome. */
const chipClass = (clock: Pick<Clock, 'status' | 'outcome'>) =>
  clock.status === 'resolved' ? styles[`chip_${clock.outcome ?? 'other'}`] : styles[`chip_${clock.status}`];

/**
 * The status as a coloured chip, and beside it what the clock says needs doing: "Breached" or
 * "Due today" (words, not colour alone).
 */
export function StatusChip({ clock }: { clock: Clock }) {
  return (
    <>
      <span className={`${styles.chip} ${chipClass(clock) ?? ''}`}>{statusText(clock)}</span>
      {isBreached(clock) && <span className={`${styles.flag} ${styles.flagBreached}`}>Breached</span>}
      {clock.due_today && <span className={`${styles.flag} ${styles.flagDue}`}>Due today</span>}
    </>
  );
}

/** `compact`: the date alone, red when breached (a table's Days Late column says by how much). */
export function DueDate({ clock, compact = false }: { clock: Clock; compact?: boolean }) {
  if (!clock.due_date) return <span className={styles.muted}>No rule</span>;
  const breached = isBreached(clock);
  return (
    <span className={breached ? styles.breached : undefined}>
      {formatShortDate(clock.due_date)}
      {breached && !compact && <> ({clock.overdue_days} days late)</>}
    </span>
  );
}

/**
 * The nearest open deadline of all the dispute's clocks (the TAT rule's and its network's rule
 * sets') and the clock's name: what the lists' clock order sorts by. Nothing once resolved.
 */
export function NextDeadline({ clock }: { clock: Pick<DisputeRecord, 'status' | 'due_date' | 'next_deadline' | 'next_clock'> }) {
  if (clock.status === 'resolved') return null;
  if (!clock.next_deadline) return <span className={styles.muted}>No clock</span>;
  // The TAT rule's own deadline is the Due Date beside it: named short, its rule's name on hover.
  const name = clock.next_deadline === clock.due_date ? 'TAT rule' : (clock.next_clock ?? '');
  return (
    <span title={clock.next_clock ?? undefined}>
      {formatShortDate(clock.next_deadline)} <span className={`${styles.muted} ${styles.clockName}`}>{name}</span>
    </span>
  );
}

export const penaltyText = (clock: Clock) => (Number(clock.penalty) > 0 ? `${formatAmount(clock.penalty)} ${clock.currency}` : '');
