import { http } from '../http.ts';
import type { TokenPair } from '../types.ts';

// The username input is sent as the email field (SPEC.md section 7).
export const createToken = (email: string, password: string) =>
  http.post<TokenPair>('/auth/jwt/create/', { email, password }, { skipSessionHandling: true });

export const verifyToken = (token: string) => http.post('/auth/jwt/verify/', { token }, { skipSessionHandling: true });
