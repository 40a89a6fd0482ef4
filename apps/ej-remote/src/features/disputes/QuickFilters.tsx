// The turnaround quick filters of the dispute table: one press applies one (it lives in the URL as
// `tat`), All removes it. Toggle buttons, so a screen reader hears which is on.
import styles from './disputes.module.css';

export const tatChoices = [
  { value: 'open', label: 'Open' },
  { value: 'breached', label: 'Breached' },
  { value: 'due_today', label: 'Due today' },
  { value: 'due_soon', label: 'Due within 2 days' },
  { value: 'resolved', label: 'Resolved' },
] as const;

export function QuickFilters({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  return (
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
  );
}
