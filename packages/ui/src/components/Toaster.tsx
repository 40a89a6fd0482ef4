// Toasts through sonner (an aria-live region); one Toaster, rendered by the shell.
import { Toaster as SonnerToaster, toast } from 'sonner';

export function Toaster() {
  // Bottom right: at the top right a toast covered the page's own actions (Add, Export) for its
  // five seconds, just when an operator reaches for them again.
  return <SonnerToaster position="bottom-right" richColors closeButton duration={5000} />;
}

export const notify = {
  success: (message: string) => toast.success(message),
  error: (message: string) => toast.error(message),
  info: (message: string) => toast(message),
  /** A change done, with Undo beside it for ten seconds. */
  undoable: (message: string, onUndo: () => void) => toast.success(message, { duration: 10_000, action: { label: 'Undo', onClick: onUndo } }),
};
