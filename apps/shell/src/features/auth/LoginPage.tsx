// /login inside the running console (after a logout, or a page that asked for a session): the
// form, then the page that was asked for.
import { useLocation, useNavigate, type Location } from 'react-router-dom';
import { startSession } from '@ejdesk/api-client';
import { LoginForm } from './LoginForm.tsx';

export function LoginPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const from = (location.state as { from?: Location } | null)?.from;
  const target = from && from.pathname !== '/login' ? `${from.pathname}${from.search}` : '/';
  return <LoginForm onSignedIn={startSession} onDone={() => navigate(target, { replace: true })} />;
}
