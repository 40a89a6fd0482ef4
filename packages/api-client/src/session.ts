// The operator's session, kept in the local storage keys the original used (docs/screens.md) (token,
// isAuthenticated, currentUser_id), and mirrored in a zustand store so that the shell and every
// remote see one session: this package is a shared singleton. The refresh token is in an HttpOnly
// cookie the API sets at login and reads at refresh and logout: no script on the page sees it.
import { createStore } from 'zustand/vanilla';
import { useStore } from 'zustand';
import { formerRefreshKey, signIn, storageKeys, storeSession, tokenClaims } from './sign-in.ts';

export { storageKeys, tokenClaims } from './sign-in.ts';

/** What the signed-in user may use: the API decides; the console only hides what it would refuse. */
export type Role = 'operator' | 'admin';

export interface Session {
  token: string | null;
  isAuthenticated: boolean;
  userId: number | null;
  /** From the access token (renewed at each refresh, so a role change shows by the next one). */
  role: Role | null;
}

const roleOf = (token: string | null | undefined): Role | null => {
  const role = token ? tokenClaims(token)?.role : null;
  return role === 'admin' || role === 'operator' ? role : null;
};

function read(): Session {
  const storage = globalThis.localStorage;
  storage?.removeItem(formerRefreshKey);
  const userId = Number(storage?.getItem(storageKeys.userId));
  return {
    token: storage?.getItem(storageKeys.token) ?? null,
    isAuthenticated: storage?.getItem(storageKeys.isAuthenticated) === 'true',
    userId: Number.isInteger(userId) && userId > 0 ? userId : null,
    role: roleOf(storage?.getItem(storageKeys.token)),
  };
}

export const sessionStore = createStore<Session>(() => read());

export function startSession(access: string): void {
  const userId = storeSession(access);
  sessionStore.setState({ token: access, isAuthenticated: true, userId, role: roleOf(access) });
}

export function replaceAccessToken(access: string): void {
  localStorage.setItem(storageKeys.token, access);
  sessionStore.setState({ token: access, role: roleOf(access) });
}

/** Logout: the flag goes (as in the original client) and so do the tokens. */
export function endSession(): void {
  for (const key of Object.values(storageKeys)) localStorage.removeItem(key);
  sessionStore.setState({ token: null, isAuthenticated: false, userId: null, role: null });
}

/**
 * Logout as the operator means it: the session ends here at once, and the server revokes the
 * refresh token its cookie holds (sent with keepalive, so leaving the page does not cancel it; if
 * the server cannot be reached the token still lapses at its expiry). A session begun at the
 * identity provider ends there too: the answer is the provider's logout page to send the browser
 * to (null otherwise).
 */
export async function logOut(): Promise<string | null> {
  const { token, isAuthenticated } = sessionStore.getState();
  endSession();
  if (!isAuthenticated) return null;
  const sso = token !== null && tokenClaims(token)?.sso === true;
  const answer = fetch(`/api/auth/${sso ? 'oidc' : 'jwt'}/logout/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
    credentials: 'same-origin',
    keepalive: true,
  });
  if (!sso) {
    void answer.catch(() => undefined);
    return null;
  }
  const body = (await answer.then((r) => r.json()).catch(() => null)) as { redirect?: unknown } | null;
  return typeof body?.redirect === 'string' ? body.redirect : null;
}

export const useSession = <T>(select: (session: Session) => T): T => useStore(sessionStore, select);

/** For a remote running on its own (development): sign in straight against the API. */
export const standaloneSession = {
  isSignedIn: () => sessionStore.getState().isAuthenticated,
  signIn: async (username: string, password: string) => {
    startSession((await signIn(username, password)).access);
  },
};
