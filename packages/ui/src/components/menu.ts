// A table tool's menu (Columns, Views): a panel under its button, opened and closed by the button,
// closed by Escape (the focus back on the button) or by a click outside it. `held` keeps it open
// while a dialog of its own is in front (Escape and clicks are the dialog's then).
import { useEffect, useId, useRef, useState } from 'react';

export function useMenu(held = false) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!open) return;
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || held) return;
      setOpen(false);
      button.current?.focus();
    };
    const closeOutside = (event: PointerEvent) => {
      if (!held && !root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('keydown', closeOnEscape);
    document.addEventListener('pointerdown', closeOutside);
    return () => {
      document.removeEventListener('keydown', closeOnEscape);
      document.removeEventListener('pointerdown', closeOutside);
    };
  }, [open, held]);
  /** The button's own props: it says whether the panel is open, and which panel it is. */
  const buttonProps = {
    ref: button,
    type: 'button' as const,
    className: 'ej-button ej-button--secondary ej-button--small',
    'aria-expanded': open,
    'aria-controls': panelId,
    onClick: () => setOpen(!open),
  };
  /** The panel's own props: data-menu tells the list's keys (ListKeys) that a menu has them. */
  const panelProps = { id: panelId, 'data-menu': '' };
  return { open, setOpen, root, button, buttonProps, panelProps };
}
