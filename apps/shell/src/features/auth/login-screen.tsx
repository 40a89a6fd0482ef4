// The first page of a visit without a session: the login form alone, with React and nothing else
// of the console (no router, API client, query client or toasts), so it is usable after a small
// download. The console starts once the operator has signed in, at the page they asked for.
import '@ejdesk/ui/tokens.css';
import '@ejdesk/ui/ui.css';
import { createRoot } from 'react-dom/client';
import { storeSession } from '@ejdesk/api-client/sign-in';
import { LoginForm } from './LoginForm.tsx';

export function showLoginScreen(): void {
  const { pathname, search } = window.location;
  // '/' and /login lead home (the first screen of the side nav: the dashboard); any other
  // page is where the operator goes back to.
  const target = pathname === '/' || pathname === '/login' ? '/' : `${pathname}${search}`;
  if (pathname !== '/login') history.replaceState(null, '', '/login');
  const root = createRoot(document.getElementById('root')!);
  let consoleApp: Promise<{ startApp: () => void }> | undefined;
  root.render(
    <LoginForm
      onSignedIn={(access) => {
        storeSession(access);
        // Fetched during the redirect delay, so the console follows the message without a wait.
        consoleApp = import('../../bootstrap.tsx');
      }}
      onDone={() => {
        void consoleApp!.then((app) => {
          root.unmount();
          history.replaceState(null, '', target);
          app.startApp();
        });
      }}
    />,
  );
}
