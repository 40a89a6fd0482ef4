// The "Columns" menu of a table: show or hide each column, move it up or down the order and, where
// the table has resizable columns, make it narrower or wider (the keyboard's way to what the
// headers' handles do with a pointer). The choice is saved for the operator (useColumnChoice);
// Reset goes back to the table's own columns.
import { useLayoutEffect, useRef, useState } from 'react';
import { clampWidth, type ColumnChoiceState } from '../column-choice.ts';
import { useMenu } from './menu.ts';

/** How far one press of Narrower or Wider moves a column's edge (CSS px). */
const widthStep = 20;
const widthButtons = [
  { word: 'narrower', title: 'Narrower', glyph: '−', by: -widthStep },
  { word: 'wider', title: 'Wider', glyph: '+', by: widthStep },
] as const;

export function ColumnChooser({
  choice,
  table,
  measure,
}: {
  choice: ColumnChoiceState;
  table: string;
  /** A column's width as shown (px); given by tables whose columns can be resized. */
  measure?: ((id: string) => number | undefined) | undefined;
}) {
  const { open, root, buttonProps, panelProps } = useMenu();
  // What the last Narrower or Wider did, read out by screen readers (the buttons' names stay put).
  const [widthSaid, setWidthSaid] = useState('');
  const resize = (id: string, label: string, by: number) => {
    const to = clampWidth((choice.widths[id] ?? measure?.(id) ?? 0) + by);
    choice.resize(id, to);
    setWidthSaid(`${label}: ${to} px`);
  };
  // A moved row is re-ordered in the DOM, which can take focus away from its button: put it back.
  const refocus = useRef<string | null>(null);
  useLayoutEffect(() => {
    if (!refocus.current) return;
    const target = root.current?.querySelector<HTMLButtonElement>(`[data-move="${CSS.escape(refocus.current)}"]`);
    refocus.current = null;
    if (target && document.activeElement !== target) target.focus();
  });

  const visibleCount = choice.columns.filter((c) => c.visible).length;
  const first = (id: string) => choice.placesFor(id).first;
  const last = (id: string) => choice.placesFor(id).last;
  const move = (id: string, by: -1 | 1, at: number) => {
    if ((by < 0 && at === first(id)) || (by > 0 && at === last(id))) return;
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
                  aria-disabled={at === first(column.id)}
                  onClick={() => move(column.id, -1, at)}
                >
                  <span aria-hidden="true">↑</span>
                </button>
                <button
                  type="button"
                  className="ej-columns__move"
                  data-move={`${column.id}:1`}
                  aria-label={`Move ${column.label} down`}
                  aria-disabled={at === last(column.id)}
                  onClick={() => move(column.id, 1, at)}
                >
                  <span aria-hidden="true">↓</span>
                </button>
                <button
                  type="button"
                  className="ej-columns__move ej-columns__pin"
                  aria-label={`Pin ${column.label} at the left`}
                  aria-pressed={choice.pinned.includes(column.id)}
                  title={choice.pinned.includes(column.id) ? 'Pinned: stays in view while the table scrolls' : 'Pin: keep in view while the table scrolls'}
                  onClick={() => choice.pin(column.id, !choice.pinned.includes(column.id))}
                >
                  <svg aria-hidden="true" width="14" height="14" viewBox="0 0 16 16" fill="currentColor">
                    <path d="M5 1h6v1.5l-1 1V7l2.5 2.5V11H8.75v4h-1.5v-4H3.5V9.5L6 7V3.5l-1-1z" />
                  </svg>
                </button>
                {measure &&
                  widthButtons.map(({ word, title, glyph, by }, i) => (
                    <button
                      key={word}
                      type="button"
                      className={i === 0 ? 'ej-columns__move ej-columns__width' : 'ej-columns__move'}
                      aria-label={`Make ${column.label} ${word}`}
                      title={title}
                      disabled={!column.visible}
                      onClick={() => resize(column.id, column.label, by)}
                    >
                      <span aria-hidden="true">{glyph}</span>
                    </button>
                  ))}
              </li>
            ))}
          </ol>
          <span className="ej-visually-hidden" role="status">
            {widthSaid}
          </span>
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
