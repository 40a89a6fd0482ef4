// A column header's own menu: sort, move left or right, pin to the left, hide: what the Columns
// menu does, where the operator is looking. Its panel is placed on the page (fixed), so the table's
// scrolling box does not clip it. A header is also dragged to a new place (drop on another header);
// the menu's Move left and Move right are the keyboard's way to the same.
import { useState, type DragEvent, type MouseEvent } from 'react';
import type { ColumnChoiceState } from '../column-choice.ts';
import { useMenu } from './menu.ts';

interface HeaderMenuProps {
  id: string;
  label: string;
  choice: ColumnChoiceState;
  /** The column's sort, when it sorts: what one press asks for next. */
  sort?: { next: 'ascending' | 'descending'; run: () => void } | undefined;
}

export function HeaderMenu({ id, label, choice, sort }: HeaderMenuProps) {
  const { open, setOpen, root, button, buttonProps, panelProps } = useMenu();
  const [place, setPlace] = useState<{ top: number; left: number } | null>(null);
  /** Opened: the panel under the button, kept inside the window. */
  const toggle = () => {
    const box = button.current?.getBoundingClientRect();
    if (!open && box) setPlace({ top: box.bottom + 4, left: Math.max(8, Math.min(box.left, window.innerWidth - 240)) });
    buttonProps.onClick();
  };
  const shown = choice.columns;
  const at = shown.findIndex((c) => c.id === id);
  const pinned = choice.pinned.includes(id);
  const { first, last } = choice.placesFor(id);
  const visible = shown.filter((c) => c.visible).length;
  const act = (run: () => void) => () => {
    run();
    setOpen(false);
    button.current?.focus();
  };
  const items: { label: string; run: () => void; disabled?: boolean }[] = [
    ...(sort ? [{ label: `Sort ${sort.next}`, run: sort.run }] : []),
    { label: 'Move left', run: () => choice.move(id, -1), disabled: at <= first },
    { label: 'Move right', run: () => choice.move(id, 1), disabled: at >= last },
    { label: pinned ? 'Unpin' : 'Pin to the left', run: () => choice.pin(id, !pinned) },
    { label: 'Hide column', run: () => choice.toggle(id), disabled: visible <= 1 },
  ];
  return (
    <span className="ej-header-menu" ref={root}>
      <button {...buttonProps} onClick={toggle} className="ej-header-menu__button" aria-label="Column options" title={`Options of ${label}`}>
        <svg aria-hidden="true" width="14" height="14" viewBox="0 0 16 16" fill="currentColor">
          <circle cx="8" cy="3" r="1.5" />
          <circle cx="8" cy="8" r="1.5" />
          <circle cx="8" cy="13" r="1.5" />
        </svg>
      </button>
      {open && (
        <div {...panelProps} className="ej-header-menu__panel" role="group" aria-label={`Options of ${label}`} style={place ?? undefined}>
          {items.map((item) => (
            <button key={item.label} type="button" className="ej-header-menu__item" disabled={item.disabled} onClick={act(item.run)}>
              {item.label}
            </button>
          ))}
        </div>
      )}
    </span>
  );
}

/** A header's drag and drop handlers: dragged onto another header, a column takes its place. */
export function headerDrag(choice: ColumnChoiceState, id: string) {
  return {
    draggable: true,
    // Pressed on the resize handle, the header is not dragged: the handle drags a width.
    onMouseDown: (event: MouseEvent<HTMLElement>) => {
      event.currentTarget.draggable = !(event.target as HTMLElement).closest('.ej-resize');
    },
    onDragStart: (event: DragEvent<HTMLElement>) => {
      event.dataTransfer.setData('application/x-ejdesk-column', id);
      event.dataTransfer.effectAllowed = 'move';
    },
    onDragOver: (event: DragEvent<HTMLElement>) => {
      if (event.dataTransfer.types.includes('application/x-ejdesk-column')) event.preventDefault();
    },
    onDrop: (event: DragEvent<HTMLElement>) => {
      const dragged = event.dataTransfer.getData('application/x-ejdesk-column');
      if (!dragged || dragged === id) return;
      event.preventDefault();
      choice.moveTo(
        dragged,
        choice.columns.findIndex((c) => c.id === id),
      );
    },
  };
}
