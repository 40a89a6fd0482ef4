// The route guard: an unauthenticated visit goes to /login, which returns to the asked-for page.
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { useSession } from '@ejdesk/api-client';

export function RequireAuth({ children }: { children: ReactNode }) {
  const authenticated = useSession((s) => s.isAuthenticated && Boolean(s.token));
  const location = useLocation();
  if (!authenticated) return <Navigate to="/login" replace state={{ from: location }} />;
  return children;
}
