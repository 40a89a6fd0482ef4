// The login sequence of SPEC.md sections 4 and 5: create tokens, check the refresh token has not
// expired, verify the access token, then start the session.
import { createToken, errorDetail, startSession, tokenClaims, verifyToken } from '@ejdesk/api-client';

export class LoginError extends Error {}

export async function logIn(username: string, password: string): Promise<void> {
  let access: string | undefined;
  let refresh: string | undefined;
  try {
    ({ access, refresh } = (await createToken(username, password)).data);
  } catch (error) {
    throw new LoginError(errorDetail(error) ?? ((error instanceof Error && error.message) || 'Login failed'));
  }
  if (!access || !refresh) throw new LoginError('Login failed. No token received.');
  const refreshExpiry = Number(tokenClaims(refresh)?.exp ?? 0) * 1000;
  if (refreshExpiry <= Date.now()) throw new LoginError('Session expired. Please login again.');
  try {
    const verified = await verifyToken(access);
    if (verified.status !== 200 && verified.status !== 201) throw new Error();
  } catch {
    throw new LoginError('Token verification failed.');
  }
  startSession(access, refresh);
}
