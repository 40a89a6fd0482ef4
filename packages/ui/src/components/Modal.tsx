// A modal on the native <dialog>: focus moves in and back, Escape closes, the page behind is inert.
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { Button } from './Button.tsx';

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
    if (!dialog || !open) return;
    const before = document.activeElement;
    if (!dialog.open) dialog.showModal?.();
    return () => {
      if (dialog.open) dialog.close();
      // The focus goes back where it was (a row a key opened this from), also when the dialog's
      // owner went with it (the ticked rows' action, gone once their change is done).
      const now = document.activeElement;
      if (before instanceof HTMLElement && before.isConnected && (!now || now === document.body || dialog.contains(now))) before.focus();
    };
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

export interface FormModalProps {
  open: boolean;
  title: string;
  onClose: () => void;
  onSubmit: () => void;
  submitLabel: string;
  busy?: boolean;
  /** False keeps the submit button off (a required field still empty). */
  canSubmit?: boolean;
  /** Why the last submit failed, said inside the dialog it belongs to. */
  error?: string | null;
  className?: string;
  children: ReactNode;
}

/** A modal holding one form: Cancel and the submit button below it, the failure inside it. */
export function FormModal({ open, title, onClose, onSubmit, submitLabel, busy = false, canSubmit = true, error, className, children }: FormModalProps) {
  const formId = useId();
  return (
    <Modal
      open={open}
      title={title}
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" form={formId} variant="primary" loading={busy} disabled={!canSubmit}>
            {submitLabel}
          </Button>
        </>
      }
    >
      <form
        id={formId}
        className={className}
        onSubmit={(event) => {
          event.preventDefault();
          onSubmit();
        }}
      >
        {children}
        {error && (
          <p className="ej-form-error" role="alert">
            {error}
          </p>
        )}
      </form>
    </Modal>
  );
}
