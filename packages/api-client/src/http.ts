// The one axios instance (docs/api.md, the client's behaviour): base path /api, the JWT
// header, no timeout. A 401 is retried once after refreshing the access token; if that fails the
// session ends and the shell's handler sends the browser to /login. A 403 is a signed-in user's
// role not allowing the request (an operator on an admin route): it goes back to the caller, the session stays
// (the original treated 403 as 401, when its API had no roles). Other errors go back to the
// caller, which says once, in words, what failed (inline for a load, a toast for an action): the
// original also toasted 'Error: {status} - {data}' here, so each failure showed two or three times.
// Every write carries an Idempotency-Key, one per user action and kept across this client's own
// retries, so the API answers a repeat with what it already did instead of doing it twice. That is
// what makes it safe to retry a write that got no answer, a 502/504 or a 503 (the API could not
// reach its database and wrote nothing): up to 3 times, after Retry-After (at most 5 s). A load is
// not retried here: the query client does that.
import axios, { AxiosError, CanceledError, type AxiosRequestConfig, type InternalAxiosRequestConfig } from 'axios';
import { endSession, replaceAccessToken, sessionStore } from './session.ts';

declare module 'axios' {
  interface AxiosRequestConfig {
    /** Auth endpoints handle their own errors: no refresh, no redirect. */
    skipSessionHandling?: boolean;
    /** Set on the one retry after a refresh. */
    retriedAfterRefresh?: boolean;
    /** How many times this write was sent again after no answer, a 502, 503 or 504. */
    idempotentRetries?: number;
  }
}

export interface ClientHooks {
  onUnauthorized: () => void;
}

const hooks: ClientHooks = {
  onUnauthorized: () => window.location.assign('/login'),
};

export function configureApiClient(next: Partial<ClientHooks>): void {
  Object.assign(hooks, next);
}

export const http = axios.create({ baseURL: '/api', timeout: 0 });

export const idempotencyHeader = 'Idempotency-Key';

/**
 * A random UUID. crypto.randomUUID exists only in a secure context (HTTPS, localhost): over plain
 * HTTP to another host the key is made from getRandomValues, which every context has.
 */
function newKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
/** Sends of a write after the first, when the API did not do it (no answer, 502, 503, 504). */
export const maxWriteRetries = 3;
const maxRetryWaitMs = 5_000;
const defaultRetryWaitMs = 1_000;

const writeMethods = new Set(['post', 'put', 'patch', 'delete']);
const isWrite = (config: AxiosRequestConfig): boolean => writeMethods.has((config.method ?? 'get').toLowerCase());

http.interceptors.request.use((config) => {
  const { token } = sessionStore.getState();
  if (token) config.headers.set('Authorization', `JWT ${token}`);
  // A caller's own key ties several calls of one action together; a retried config keeps the key
  // it was first sent with.
  if (isWrite(config) && !config.headers.has(idempotencyHeader)) config.headers.set(idempotencyHeader, newKey());
  return config;
});

let refreshing: Promise<string | null> | null = null;

/** One refresh at a time, however many requests failed together; the session cookie carries the refresh token. */
export function refreshAccessToken(): Promise<string | null> {
  if (!sessionStore.getState().isAuthenticated) return Promise.resolve(null);
  refreshing ??= http
    .post<{ access: string }>('/auth/jwt/refresh/', {}, { skipSessionHandling: true })
    .then((response) => {
      replaceAccessToken(response.data.access);
      return response.data.access;
    })
    .catch(() => null)
    .finally(() => {
      refreshing = null;
    });
  return refreshing;
}

/** Why a request failed, as a clause for an operator: no status codes or JSON unless nothing better. */
export function failureReason(error: unknown): string {
  if (!(error instanceof AxiosError)) return error instanceof Error ? error.message : String(error);
  const status = error.response?.status;
  if (status === undefined) return 'the server did not answer';
  const detail = errorDetail(error);
  if (detail) return detail.replace(/\.$/, '');
  if (status >= 500) return `the server had a problem (HTTP ${status})`;
  return `the server refused the request (HTTP ${status})`;
}

/** The one message of a failed load, e.g. "The list could not be loaded: the server did not answer." */
export const loadFailure = (what: string, error: unknown): string => `The ${what} could not be loaded: ${failureReason(error)}.`;

/** Whether a request failed because what it named does not exist (404): not worth a retry. */
export const isNotFound = (error: unknown): boolean => error instanceof AxiosError && error.response?.status === 404;

/** The query client's retry rule: one more try, except for what does not exist. */
export const retryOnceUnlessNotFound = (failures: number, error: unknown): boolean => failures < 1 && !isNotFound(error);

/** The server's {"detail": ...} message of a failed request, if it sent one. */
export function errorDetail(error: unknown): string | null {
  if (error instanceof AxiosError) {
    const detail = (error.response?.data as { detail?: unknown } | undefined)?.detail;
    if (typeof detail === 'string') return detail;
  }
  return null;
}

http.interceptors.response.use(undefined, async (error: unknown) => {
  if (!(error instanceof AxiosError) || !error.config) throw error;
  const config: AxiosRequestConfig = error.config;
  const status = error.response?.status;
  if (config.skipSessionHandling || axios.isCancel(error)) throw error;
  if (mayRetryWrite(error, error.config)) {
    await pause(retryWaitMs(error.response?.headers['retry-after']), error.config);
    return http.request({ ...error.config, idempotentRetries: (config.idempotentRetries ?? 0) + 1 });
  }
  if (status === 401) {
    if (!config.retriedAfterRefresh) {
      const access = await refreshAccessToken();
      if (access) return http.request({ ...(config as InternalAxiosRequestConfig), retriedAfterRefresh: true });
    }
    endSession();
    hooks.onUnauthorized();
  }
  throw error;
});

/** A write the API did not do (no answer, or 502/503/504), with the key that makes a repeat safe. */
function mayRetryWrite(error: AxiosError, config: InternalAxiosRequestConfig): boolean {
  if (!isWrite(config) || !config.headers.has(idempotencyHeader)) return false;
  if ((config.idempotentRetries ?? 0) >= maxWriteRetries) return false;
  const status = error.response?.status;
  // No answer at all: a request that went out, not one axios refused to make.
  if (status === undefined) return error.request !== undefined;
  return status === 502 || status === 503 || status === 504;
}

/** Retry-After in seconds or as a date, held to 0..5 s; 1 s when absent or unreadable. */
export function retryWaitMs(retryAfter: unknown, now = Date.now()): number {
  if (typeof retryAfter !== 'string' || retryAfter.trim() === '') return defaultRetryWaitMs;
  const text = retryAfter.trim();
  const ms = /^\d+(\.\d+)?$/.test(text) ? Number(text) * 1000 : Date.parse(text) - now;
  if (Number.isNaN(ms)) return defaultRetryWaitMs;
  return Math.min(Math.max(ms, 0), maxRetryWaitMs);
}

/** Waits, unless the caller cancels meanwhile: then the write ends as cancelled, not sent again. */
function pause(ms: number, config: InternalAxiosRequestConfig): Promise<void> {
  const signal = config.signal;
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new CanceledError(undefined, config));
    const onAbort = () => {
      clearTimeout(timer);
      reject(new CanceledError(undefined, config));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener?.('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener?.('abort', onAbort, { once: true });
  });
}

/** POST bodies go as multipart form data, as the original client sends them. */
export function formData(fields: Record<string, string>): FormData {
  const body = new FormData();
  for (const [key, value] of Object.entries(fields)) body.append(key, value);
  return body;
}
