// The quick filters of the dispute table: the turnaround (one at a time, `tat` in the URL, All
// removes it) and the operator's own work (Mine, Follow up today: each on or off). Toggle buttons,
// so a screen reader hears which is on.
import styles from './disputes.module.css';

export const tatChoices = [
  { value: 'open', label: 'Open' },
  { value: 'breached', label: 'Breached' },
  { value: 'due_today', label: 'Due today' },
  { value: 'due_soon', label: 'Due within 2 days' },
  { value: 'resolved', label: 'Resolved' },
] as const;

/** The operator's own work: their disputes, and the ones to follow up today. Each toggles alone. */
const workChoices = [
  { name: 'owner', value: 'me', label: 'Mine' },
  { name: 'follow_up', value: 'today', label: 'Follow up today' },
] as const;

export function QuickFilters({
  value,
  onChange,
  work,
  onWork,
}: {
  value: string;
  onChange: (value: string) => void;
  /** The work filters' values now (owner, follow_up), and a change of one. */
  work: Record<'owner' | 'follow_up', string>;
  onWork: (name: 'owner' | 'follow_up', value: string) => void;
}) {
  return (
    <div className={styles.quickFilterRow}>
      <div className={styles.quickFilters} role="group" aria-label="Turnaround">
        <span className={styles.quickFiltersTitle} aria-hidden="true">
          Turnaround:
        </span>
        {[{ value: '', label: 'All' }, ...tatChoices].map((choice) => (
          <button key={choice.value} type="button" className={styles.quickFilter} aria-pressed={value === choice.value} onClick={() => onChange(choice.value)}>
            {choice.label}
          </button>
        ))}
      </div>
      <div className={styles.quickFilters} role="group" aria-label="My work">
        <span className={styles.quickFiltersTitle} aria-hidden="true">
          My work:
        </span>
        {workChoices.map((choice) => {
          const on = work[choice.name] === choice.value;
          return (
            <button
              key={choice.name}
              type="button"
              className={styles.quickFilter}
              aria-pressed={on}
              onClick={() => onWork(choice.name, on ? '' : choice.value)}
            >
              {choice.label}
            </button>
          );
        })}
      </div>
    </div>
  );
}
