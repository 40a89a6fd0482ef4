// What the API and the edge's servers answer alike at the HTTP level: a browser talks to either.
export { answerClientError } from './client-errors.ts';
export { permissionsPolicy } from './permissions-policy.ts';

/** The largest request body (64 KiB): the API's limit, which the edge's proxy refuses above with 413. */
export const bodyLimit = 64 * 1024;
export { discardUnreadBody } from './early-answers.ts';
