// A modal on the native <dialog>: focus moves in and back, Escape closes, the page behind is inert.
import { useEffect, useId, useRef, type ReactNode } from 'react';

export interface ModalProps {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
  footer?: ReactNode;
}

export function Modal({ open, title, onClose, children, footer }: ModalProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal?.();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      className="ej-dialog"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      {open && (
        <>
          <header className="ej-dialog__header">
            <h2 id={titleId} className="ej-dialog__title">
              {title}
            </h2>
          </header>
          <div className="ej-dialog__body">{children}</div>
          {footer && <footer className="ej-dialog__footer">{footer}</footer>}
        </>
      )}
    </dialog>
  );
}
