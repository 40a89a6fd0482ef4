// The login sequence of the original (docs/screens.md) (create tokens, check the refresh token has not
// expired, verify the access token) and the session's storage keys (section 3), with fetch and
// nothing else: the login screen loads this before React's router, axios or the query client, so
// it stays small (`@ejdesk/api-client/sign-in`). session.ts mirrors the keys in the shared store.

export const storageKeys = {
  token: 'token',
  isAuthenticated: 'isAuthenticated',
  userId: 'currentUser_id',
} as const;

/**
 * Where an earlier console kept the refresh token. It now lives in an HttpOnly cookie that no
 * script reads (a remote's included): a copy left here is removed.
 */
export const formerRefreshKey = 'refresh';

/** The payload of a JWT, without verifying it (the server does that). */
export function tokenClaims(token: string): Record<string, unknown> | null {
  try {
    const part = token.split('.')[1] ?? '';
    const json = atob(part.replaceAll('-', '+').replaceAll('_', '/'));
    const claims: unknown = JSON.parse(json);
    return claims && typeof claims === 'object' ? (claims as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * Writes the session to local storage; returns the user id the access token names. The refresh
 * token is not kept: the API set it in the session cookie with the same answer.
 */
export function storeSession(access: string): number | null {
  const userId = Number(tokenClaims(access)?.user_id) || null;
  localStorage.removeItem(formerRefreshKey);
  localStorage.setItem(storageKeys.token, access);
  localStorage.setItem(storageKeys.isAuthenticated, 'true');
  if (userId) localStorage.setItem(storageKeys.userId, String(userId));
  return userId;
}

/** Why a login failed, in the original's words (or the server's own detail). */
export class LoginError extends Error {}

const post = (path: string, body: unknown) =>
  fetch(`/api/auth/jwt/${path}/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** The tokens of a successful login; throws LoginError with the message to show otherwise. */
export async function signIn(username: string, password: string): Promise<{ access: string; refresh: string }> {
  let answer: { access?: string; refresh?: string; detail?: unknown };
  try {
    // The username input is sent as the email field, as the original client did.
    const response = await post('create', { email: username, password });
    answer = await response.json().catch(() => ({}));
    if (!response.ok) {
      throw new LoginError(typeof answer.detail === 'string' && answer.detail ? answer.detail : `Login failed (the server answered ${response.status}).`);
    }
  } catch (error) {
    if (error instanceof LoginError) throw error;
    throw new LoginError('Login failed: the server did not answer.');
  }
  return checkedTokens(answer);
}

/** The original's checks of a token pair, whichever way it was obtained: present, not expired, verified. */
async function checkedTokens({ access, refresh }: { access?: string; refresh?: string }): Promise<{ access: string; refresh: string }> {
  if (!access || !refresh) throw new LoginError('Login failed. No token received.');
  if (Number(tokenClaims(refresh)?.exp ?? 0) * 1000 <= Date.now()) throw new LoginError('Session expired. Please login again.');
  const verified = await post('verify', { token: access }).catch(() => null);
  if (verified?.status !== 200 && verified?.status !== 201) throw new LoginError('Token verification failed.');
  return { access, refresh };
}

/** What the login page offers: single sign-on (by the provider's name) and the password form. */
export interface SignInOptions {
  sso: { displayName: string } | null;
  passwordForm: boolean;
}

/** Asked once by the login page; a server that cannot say offers the password form alone. */
export async function signInOptions(): Promise<SignInOptions> {
  try {
    const response = await fetch('/api/auth/oidc/');
    const answer = (await response.json()) as { enabled?: boolean; display_name?: string | null; local_login?: boolean };
    return { sso: answer.enabled && answer.display_name ? { displayName: answer.display_name } : null, passwordForm: answer.local_login !== false };
  } catch {
    return { sso: null, passwordForm: true };
  }
}

/** Where "Sign in with ..." goes: the API sends the browser on to the identity provider. */
export const ssoStartUrl = '/api/auth/oidc/login/';

/**
 * What the identity provider's callback left in the address (/login#sso=CODE, or #sso_error=WHY),
 * taken out of it at once so that a reload or the history never shows it again.
 */
export function takeSsoResult(): { code: string } | { error: string } | null {
  const fragment = new URLSearchParams(window.location.hash.slice(1));
  const code = fragment.get('sso');
  const error = fragment.get('sso_error');
  if (!code && !error) return null;
  history.replaceState(history.state, '', `${window.location.pathname}${window.location.search}`);
  return code ? { code } : { error: error! };
}

/** The tokens for a one-time code from the identity provider's callback. */
export async function exchangeSsoCode(code: string): Promise<{ access: string; refresh: string }> {
  let answer: { access?: string; refresh?: string; detail?: unknown };
  try {
    const response = await fetch('/api/auth/oidc/session/', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code }),
    });
    answer = await response.json().catch(() => ({}));
    if (!response.ok) throw new LoginError(typeof answer.detail === 'string' ? answer.detail : `Sign-in failed (the server answered ${response.status}).`);
  } catch (error) {
    if (error instanceof LoginError) throw error;
    throw new LoginError('Login failed: the server did not answer.');
  }
  return checkedTokens(answer);
}

/** Whether the access token says the user must choose a new password (after an admin's reset). */
export const mustChangePassword = (access: string) => tokenClaims(access)?.password_change_required === true;

/** Sets the user's own password; throws LoginError with the server's reason otherwise. */
export async function changePassword(access: string, oldPassword: string, newPassword: string): Promise<void> {
  let response: Response;
  try {
    response = await fetch('/api/auth/jwt/password/', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `JWT ${access}` },
      body: JSON.stringify({ old_password: oldPassword, new_password: newPassword }),
    });
  } catch {
    throw new LoginError('The password could not be changed: the server did not answer.');
  }
  if (response.ok) return;
  const answer: { detail?: unknown } = await response.json().catch(() => ({}));
  throw new LoginError(
    typeof answer.detail === 'string' ? answer.detail.replace(/^body: /, '') : `The password could not be changed (the server answered ${response.status}).`,
  );
}
