// A dispute's clock as operators read it: its status (with the outcome once resolved), the due date,
// the age in days and the penalty so far; a breached one is marked, in words as well as colour.
import type { DisputeRecord, DisputeStatus } from '@ejdesk/api-client';
import { formatAmount, formatShortDate } from '@ejdesk/ui';
import styles from './disputes.module.css';

export const statusLabels: Record<DisputeStatus, string> = { open: 'Open', awaiting_msp: 'Awaiting MSP', resolved: 'Resolved' };
export const outcomeLabels = { credited: 'credited', rejected: 'rejected', other: 'other' } as const;

type Clock = Pick<DisputeRecord, 'status' | 'outcome' | 'due_date' | 'overdue_days' | 'penalty' | 'currency'>;

export const statusText = (clock: Pick<Clock, 'status' | 'outcome'>) =>
  `${statusLabels[clock.status]}${clock.outcome ? ` (${outcomeLabels[clock.outcome]})` : ''}`;

/** Past its due date and not resolved. */
const isBreached = (clock: Clock) => clock.status !== 'resolved' && clock.overdue_days > 0;

export function DueDate({ clock }: { clock: Clock }) {
  if (!clock.due_date) return <span className={styles.muted}>No rule</span>;
  const breached = isBreached(clock);
  return (
    <span className={breached ? styles.breached : undefined}>
      {formatShortDate(clock.due_date)}
      {breached && <> ({clock.overdue_days} days late)</>}
    </span>
  );
}

export const penaltyText = (clock: Clock) => (Number(clock.penalty) > 0 ? `${formatAmount(clock.penalty)} ${clock.currency}` : '');
