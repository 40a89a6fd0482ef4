// A paged list's keys: `/` to the first filter, Escape out of it (back to the rows), `[` and `]`
// for the previous and next page, `?` for the list of keys; j or k from anywhere on the page takes
// the keyboard to the rows (a list opens ready for them), and the list's own actions (`s`: set the
// status) run on the ticked rows or the focused one. The rows' own keys (arrows, j, k, Enter, x,
// Space) are the table's (DataTable). Keys typed into a field stay that field's.
import { useEffect, useState } from 'react';
import { Button } from './Button.tsx';
import { Modal } from './Modal.tsx';

export interface ListPaging {
  page: number;
  totalPages: number;
  onPage: (page: number) => void;
}

/** A key of the list's own (one letter), what it does in words, and the action. */
export interface ListAction {
  key: string;
  label: string;
  run: () => void;
}

const rowKeys: [string, string][] = [
  ['↓ or j', 'Next row (from anywhere on the page: the rows)'],
  ['↑ or k', 'Previous row'],
  ['Home / End', 'First / last row'],
  ['Enter', 'Open the row'],
];
const tickKeys: [string, string][] = [
  ['x or Space', 'Tick or untick the row'],
  ['Shift + x, Shift + ↓ / ↑', 'Tick every row from the last one ticked'],
];
const pageKeys: [string, string][] = [
  ['/', 'Go to the first filter'],
  ['Escape', 'Leave the filter, back to the rows'],
  ['[ and ]', 'Previous and next page'],
  ['?', 'This list of keys'],
];

const noActions: readonly ListAction[] = [];

/** The row that has (or last had) the keyboard focus, else the first. */
const focusRows = (table: HTMLElement | null) =>
  (table?.querySelector<HTMLElement>('tbody tr[tabindex="0"]') ?? table?.querySelector<HTMLElement>('tbody tr[tabindex]'))?.focus();

export function ListKeys({
  paging,
  table,
  ticks = false,
  actions = noActions,
}: {
  paging: ListPaging;
  table: () => HTMLElement | null;
  /** The rows can be ticked (x, Space, Shift): said in the list of keys. */
  ticks?: boolean;
  actions?: readonly ListAction[];
}) {
  const [help, setHelp] = useState(false);
  const { page, totalPages, onPage } = paging;
  const keys = [...rowKeys, ...(ticks ? tickKeys : []), ...actions.map((a): [string, string] => [a.key, a.label]), ...pageKeys];
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
      const target = event.target instanceof HTMLElement ? event.target : null;
      if (target?.closest('input, textarea, select, [contenteditable="true"]')) {
        if (event.key === 'Escape' && target.closest('.ej-filters')) {
          event.preventDefault();
          target.blur();
          focusRows(table());
        }
        return;
      }
      // A dialog or a menu open has the keys.
      if (document.querySelector('dialog[open]') || target?.closest('[data-menu]')) return;
      const root = table()?.closest('.ej-card, main') ?? document;
      const inRows = !!target?.closest('tbody');
      const action = actions.find((a) => a.key === event.key);
      if (action && !event.shiftKey) {
        event.preventDefault();
        action.run();
      } else if (!inRows && (event.key === 'j' || event.key === 'k' || (event.key === 'ArrowDown' && !target?.closest('a, button, [role="region"]')))) {
        // The rows take the keyboard from wherever the page has it.
        if (!table()?.querySelector('tbody tr[tabindex]')) return;
        event.preventDefault();
        focusRows(table());
      } else if (event.key === '/') {
        const first = root.querySelector<HTMLElement>('.ej-filters input, .ej-filters select');
        if (!first) return;
        event.preventDefault();
        first.focus();
      } else if (event.key === '[' && page > 1) {
        event.preventDefault();
        onPage(page - 1);
      } else if (event.key === ']' && page < totalPages) {
        event.preventDefault();
        onPage(page + 1);
      } else if (event.key === '?') {
        event.preventDefault();
        setHelp(true);
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [page, totalPages, onPage, table, actions]);

  return (
    <>
      <button type="button" className="ej-button ej-button--ghost ej-button--small" aria-keyshortcuts="?" onClick={() => setHelp(true)}>
        Keys
      </button>
      <Modal open={help} title="Keyboard" onClose={() => setHelp(false)} footer={<Button onClick={() => setHelp(false)}>Close</Button>}>
        <dl className="ej-keys">
          {keys.map(([key, what]) => (
            <div key={key} className="ej-keys__row">
              <dt>
                <kbd>{key}</kbd>
              </dt>
              <dd>{what}</dd>
            </div>
          ))}
        </dl>
      </Modal>
    </>
  );
}
