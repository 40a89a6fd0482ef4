// Toasts through sonner (an aria-live region); one Toaster, rendered by the shell.
import { Toaster as SonnerToaster, toast } from 'sonner';

export function Toaster() {
  return <SonnerToaster position="top-right" richColors closeButton duration={5000} />;
}

export const notify = {
  success: (message: string) => toast.success(message),
  error: (message: string) => toast.error(message),
  info: (message: string) => toast(message),
};
