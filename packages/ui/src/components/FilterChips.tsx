// What a list is filtered by, as chips that each remove their filter, and Clear for all of them.
// The row keeps its height when empty, so applying the first filter does not move the table.
import { formatMonth, formatShortDate } from '../format.ts';
import { Button } from './Button.tsx';

export interface AppliedFilter {
  name: string;
  label: string;
  value: string;
  type?: 'text' | 'date' | 'month';
}

/** The value as the operator reads it: dates DD/MM/YY, months 'Nov 2026'. */
function shown({ value, type }: AppliedFilter): string {
  if (type === 'date') return formatShortDate(value);
  return type === 'month' ? formatMonth(value) : value;
}

export function FilterChips({
  applied,
  onRemove,
  onClear,
}: {
  applied: AppliedFilter[];
  onRemove: (name: string) => void;
  onClear?: (() => void) | undefined;
}) {
  return (
    <div className="ej-chips" role="group" aria-label="Applied filters">
      {applied.length === 0 ? (
        <span className="ej-chips__none">No filters applied</span>
      ) : (
        <>
          <span className="ej-chips__title">Applied:</span>
          <ul className="ej-chips__list">
            {applied.map((filter) => (
              // One button per chip, named by its text ('Bank Name: apex, remove filter').
              <li key={filter.name}>
                <button type="button" className="ej-chip" onClick={() => onRemove(filter.name)}>
                  <span>
                    {filter.label}: <strong>{shown(filter)}</strong>
                    <span className="ej-visually-hidden">, remove filter</span>
                  </span>
                  <span className="ej-chip__x" aria-hidden="true">
                    ×
                  </span>
                </button>
              </li>
            ))}
          </ul>
          {onClear && (
            <Button size="small" onClick={onClear}>
              Clear
            </Button>
          )}
        </>
      )}
    </div>
  );
}
