// The "Columns" menu of a table: show or hide each column and move it up or down the order. The
// choice is saved for the operator (useColumnChoice); Reset goes back to the table's own columns.
import { useLayoutEffect, useRef } from 'react';
import type { ColumnChoiceState } from '../column-choice.ts';
import { useMenu } from './menu.ts';

export function ColumnChooser({ choice, table }: { choice: ColumnChoiceState; table: string }) {
  const { open, root, buttonProps, panelProps } = useMenu();
  // A moved row is re-ordered in the DOM, which can take focus away from its button: put it back.
  const refocus = useRef<string | null>(null);
  useLayoutEffect(() => {
    if (!refocus.current) return;
    const target = root.current?.querySelector<HTMLButtonElement>(`[data-move="${CSS.escape(refocus.current)}"]`);
    refocus.current = null;
    if (target && document.activeElement !== target) target.focus();
  });

  const visibleCount = choice.columns.filter((c) => c.visible).length;
  const last = choice.columns.length - 1;
  const move = (id: string, by: -1 | 1, at: number) => {
    if ((by < 0 && at === 0) || (by > 0 && at === last)) return;
    refocus.current = `${id}:${by}`;
    choice.move(id, by);
  };

  return (
    <div className="ej-columns" ref={root}>
      <button {...buttonProps}>Columns{visibleCount < choice.columns.length ? ` (${visibleCount} of ${choice.columns.length})` : ''}</button>
      {open && (
        <div {...panelProps} className="ej-columns__panel" role="group" aria-label={`Columns of ${table}`}>
          <ol className="ej-columns__list">
            {choice.columns.map((column, at) => (
              <li key={column.id} className="ej-columns__item">
                <label className="ej-columns__label">
                  <input
                    type="checkbox"
                    checked={column.visible}
                    // The last visible column stays: a table of no columns shows nothing to choose back.
                    disabled={column.visible && visibleCount === 1}
                    onChange={() => choice.toggle(column.id)}
                  />
                  {column.label}
                </label>
                {/* aria-disabled, not disabled: a button at the end keeps focus after its move. */}
                <button
                  type="button"
                  className="ej-columns__move"
                  data-move={`${column.id}:-1`}
                  aria-label={`Move ${column.label} up`}
                  aria-disabled={at === 0}
                  onClick={() => move(column.id, -1, at)}
                >
                  <span aria-hidden="true">↑</span>
                </button>
                <button
                  type="button"
                  className="ej-columns__move"
                  data-move={`${column.id}:1`}
                  aria-label={`Move ${column.label} down`}
                  aria-disabled={at === last}
                  onClick={() => move(column.id, 1, at)}
                >
                  <span aria-hidden="true">↓</span>
                </button>
              </li>
            ))}
          </ol>
          <div className="ej-columns__footer">
            <button type="button" className="ej-button ej-button--ghost ej-button--small" disabled={choice.isDefault} onClick={choice.reset}>
              Reset columns
            </button>
          </div>
        </div>
      )}
    </div>
  );
}
