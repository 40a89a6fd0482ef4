// Async boundary: shared singletons are negotiated with the remotes before any of them is used.
// A visit without a session starts with the login form alone (login-screen.tsx), a small download;
// the console itself loads after the login, or at once for an operator already signed in.
import { storageKeys } from '@ejdesk/api-client/sign-in';

const signedIn = localStorage.getItem(storageKeys.isAuthenticated) === 'true' && Boolean(localStorage.getItem(storageKeys.token));
if (signedIn) void import('./bootstrap.tsx').then((app) => app.startApp());
else void import('./features/auth/login-screen.tsx').then((login) => login.showLoginScreen());
