// For the remotes' own tests: the real client with the network faked. fakeApi() answers each
// request from a table keyed by path ('/scrape/ejs/read/email/') or method and path ('POST
// /admin/ignore-rules/'); a value is the 200 body, a function gets the request and returns the
// body (or throws answer(status, body)). An unknown path is a 404 {"detail"}, as the API answers.
import { AxiosError, type AxiosAdapter, type InternalAxiosRequestConfig } from 'axios';
import { http } from './http.ts';

// The shapes a test's answers are written in.
export type * from './types.ts';
export type { EjRecord } from './endpoints/ej.ts';
export type * from './endpoints/mail-flow.ts';

export interface FakeRequest {
  method: string;
  path: string;
  params: Record<string, unknown>;
  body: unknown;
}

/** Thrown from an answer function: the API's answer with that status. */
export class Answer {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {}
}
export const answer = (status: number, body: unknown) => new Answer(status, body);

/** A 200 body, or a function of the request that returns one (or throws answer(...)). */
export type FakeAnswer = ((request: FakeRequest) => unknown) | object | string | number | boolean | null;
export type FakeRoutes = Record<string, FakeAnswer>;

let active: { restore(): void } | undefined;

/** Puts the real network back (a test file's afterEach). */
export function restoreFakeApi(): void {
  active?.restore();
  active = undefined;
}

export function fakeApi(routes: FakeRoutes): { requests: FakeRequest[]; restore(): void } {
  restoreFakeApi();
  const requests: FakeRequest[] = [];
  const previous = http.defaults.adapter;
  const respond = (config: InternalAxiosRequestConfig, status: number, data: unknown) => {
    const response = { data, status, statusText: String(status), headers: {}, config, request: {} };
    if (status < 400) return response;
    throw new AxiosError(`Request failed with status code ${status}`, status < 500 ? 'ERR_BAD_REQUEST' : 'ERR_BAD_RESPONSE', config, {}, response);
  };
  const adapter: AxiosAdapter = async (config) => {
    const method = (config.method ?? 'get').toUpperCase();
    const path = config.url ?? '';
    const body = typeof config.data === 'string' ? safeJson(config.data) : config.data;
    const request = { method, path, params: (config.params ?? {}) as Record<string, unknown>, body };
    requests.push(request);
    const route = routes[`${method} ${path}`] ?? (method === 'GET' ? routes[path] : undefined);
    if (route === undefined) return respond(config, 404, { detail: 'Not found.' });
    try {
      return respond(config, method === 'POST' ? 201 : 200, typeof route === 'function' ? await (route as (r: FakeRequest) => unknown)(request) : route);
    } catch (thrown) {
      if (thrown instanceof Answer) return respond(config, thrown.status, thrown.body);
      throw thrown;
    }
  };
  http.defaults.adapter = adapter;
  active = { restore: () => void (http.defaults.adapter = previous) };
  return { requests, restore: restoreFakeApi };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The contract's paths, for a test that answers a list the screen asked for by name. */
export { emailListPaths, fileKindPaths } from '@ejdesk/contract';
