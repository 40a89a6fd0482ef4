// For the remotes' own tests: the real client with the network faked. fakeApi() answers each
// request from a table keyed by path ('/scrape/ejs/read/email/') or method and path ('POST
// /admin/ignore-rules/'); a value is the 200 body, a function gets the request and returns the
// body (or throws answer(status, body)). An unknown path is a 404 {"detail"}, as the API answers.
import { AxiosError, type AxiosAdapter, type InternalAxiosRequestConfig } from 'axios';
import { http } from './http.ts';
import type { EmailListName, FileKindName, emailListPaths, fileKindPaths } from '@ejdesk/contract';
import type { Account, ConnectionTest, IgnoreRule, Mailbox, SenderMapping } from './endpoints/admin.ts';
import type { AuditChainReport, AuditEntry } from './endpoints/audit.ts';
import type { AlertDelivery, AlertRule } from './endpoints/alerts.ts';
import type { ChangeRequest, ChangeRequestDetail, FourEyesSetting } from './endpoints/approvals.ts';
import type { DataFileDetail, DataFileListRow } from './endpoints/files.ts';
import type { MailFlow, MailStall, Reprocessed } from './endpoints/mail-flow.ts';
import type { ColumnChoice } from './endpoints/preferences.ts';
import type { DisputeStory, RuleSet } from './endpoints/disputes.ts';
import type { ApplySuggestionAnswer, JournalDetail, JournalItem, JournalLines, JournalUpload } from './endpoints/journals.ts';
import type { BankMsp, BankPassword, DashboardCounts, EmailDetails, EmailJsonItem, EmailListRow, Paginated, RevealedBankPassword } from './types.ts';
import type { EjRecord } from '@ejdesk/export';

// The shapes a test's answers are written in.
export type * from './types.ts';
export type { EjRecord } from './endpoints/ej.ts';
export type * from './endpoints/mail-flow.ts';
export type { IgnoreRule, Mailbox, SenderMapping } from './endpoints/admin.ts';
export type { DisputeRecord, DisputeStory } from './endpoints/disputes.ts';
export type { ApplySuggestionAnswer, Evidence, JournalDetail, JournalItem, JournalLines, JournalUpload } from './endpoints/journals.ts';

interface FakeRequest {
  method: string;
  path: string;
  params: Record<string, unknown>;
  body: unknown;
}

/** Thrown from an answer function: the API's answer with that status. */
class Answer {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {}
}
export const answer = (status: number, body: unknown) => new Answer(status, body);

type EmailList = (typeof emailListPaths)[EmailListName];
type FileKind = (typeof fileKindPaths)[FileKindName];
/** No body: a 204. */
type Nothing = null | undefined | '';

/**
 * What the API answers on each route the client calls, by the contract's types: a test's fixture
 * that drifts from the contract (a renamed field, a wrong type, a path the API does not have) fails
 * the type check instead of passing against a screen that would break on the real API.
 */
interface ContractAnswers {
  '/scrape/store/password/list/': BankPassword[];
  'POST /scrape/store/password/create/': BankPassword;
  [reveal: `POST /scrape/store/password/${number}/reveal/`]: RevealedBankPassword;
  [changePassword: `PUT /scrape/store/password/${number}/`]: BankPassword;
  [deletePassword: `DELETE /scrape/store/password/${number}/`]: Nothing;
  '/scrape/bank/msp/list/': BankMsp[];
  'POST /scrape/bank/msp/create/': BankMsp;
  [changeMsp: `PUT /scrape/bank/msp/${number}/`]: BankMsp;
  [deleteMsp: `DELETE /scrape/bank/msp/${number}/`]: Nothing;
  '/admin/users/': Account[];
  'POST /admin/users/': Account;
  [change: `PATCH /admin/users/${number}/`]: Account;
  [reset: `POST /admin/users/${number}/reset-password/`]: Account;
  '/admin/sender-mappings/': SenderMapping[];
  'POST /admin/sender-mappings/': SenderMapping;
  [change: `PUT /admin/sender-mappings/${number}/`]: SenderMapping;
  [remove: `DELETE /admin/sender-mappings/${number}/`]: Nothing;
  '/admin/ignore-rules/': IgnoreRule[];
  'POST /admin/ignore-rules/': IgnoreRule;
  [change: `PUT /admin/ignore-rules/${number}/`]: IgnoreRule;
  [remove: `DELETE /admin/ignore-rules/${number}/`]: Nothing;
  '/admin/mailboxes/': Mailbox[];
  'POST /admin/mailboxes/': Mailbox;
  [change: `PUT /admin/mailboxes/${number}/`]: Mailbox;
  [remove: `DELETE /admin/mailboxes/${number}/`]: Nothing;
  'POST /admin/mailboxes/test/': ConnectionTest;
  '/admin/audit-log/': Paginated<AuditEntry>;
  '/admin/audit-log/export/': string;
  '/admin/audit-log/verify/': AuditChainReport;
  '/admin/alert-rules/': AlertRule[];
  'POST /admin/alert-rules/': AlertRule;
  [changeAlert: `PUT /admin/alert-rules/${number}/`]: AlertRule;
  [removeAlert: `DELETE /admin/alert-rules/${number}/`]: Nothing;
  '/admin/alert-deliveries/': Paginated<AlertDelivery>;
  '/approvals/': Paginated<ChangeRequest>;
  [approval: `/approvals/${number}/`]: ChangeRequestDetail;
  [approve: `POST /approvals/${number}/approve/`]: ChangeRequest;
  [reject: `POST /approvals/${number}/reject/`]: ChangeRequest;
  '/admin/four-eyes/': FourEyesSetting[];
  'PUT /admin/four-eyes/': FourEyesSetting[];
  '/admin/audit-log/chain/': string;
  '/scrape/extract/email/data/pagination/': Paginated<EjRecord>;
  '/scrape/extract/overage/data/': EjRecord[];
  '/scrape/extract/succeeding/data/': EjRecord[];
  '/scrape/email/dashboard/count/': DashboardCounts;
  '/scrape/email/to/json/data/': EmailJsonItem[];
  [json: `/scrape/email/to/json/data/${number}/`]: EmailJsonItem[];
  [details: `/scrape/email/body/html/text/data/${number}/`]: EmailDetails;
  '/mail-flow/': MailFlow;
  '/mail-flow/stalled/': MailStall;
  [reprocess: `POST /admin/emails/${number}/reprocess/`]: Reprocessed;
  [preference: `/preferences/${string}/`]: { value: ColumnChoice | null };
  [save: `PUT /preferences/${string}/`]: Nothing | { value: ColumnChoice };
  [remove: `DELETE /preferences/${string}/`]: Nothing;
  '/journals/': Paginated<JournalItem>;
  'POST /journals/': JournalUpload;
  [journal: `/journals/${number}/`]: JournalDetail;
  [lines: `/journals/${number}/lines/`]: JournalLines;
  [dispute: `/disputes/${number}/`]: DisputeStory;
  [stage: `POST /disputes/${number}/stage/`]: DisputeStory;
  [network: `POST /disputes/${number}/network/`]: DisputeStory;
  '/admin/rule-sets/': RuleSet[];
  [ruleSet: `PATCH /admin/rule-sets/${number}/`]: RuleSet;
  [apply: `POST /disputes/${number}/apply-suggestion/`]: ApplySuggestionAnswer;
  'POST /disputes/apply-suggestion/': ApplySuggestionAnswer;
  '/disputes/owners/': { id: number; email: string }[];
  'POST /disputes/follow-up/': { updated: number };
  [pdf: `/disputes/${number}/evidence.pdf`]: Blob;
  'POST /disputes/evidence.zip': Blob;
}
/** The email lists and the file kinds, whose paths the contract names. */
type ListAnswers = Record<EmailList, Paginated<EmailListRow>> &
  Record<`${FileKind}/pagination/`, Paginated<DataFileListRow>> &
  Record<`${FileKind}/`, DataFileListRow[]>;
type FileDetailAnswers = { [detail: `${FileKind}/${number}/`]: DataFileDetail };
type AllAnswers = ContractAnswers & ListAnswers & FileDetailAnswers;

/** A route's answer: its body, or a function of the request that returns it (or throws answer(...)). */
export type FakeAnswer<T> = T | ((request: FakeRequest) => T | Promise<T>);
export type FakeRoutes = { [K in keyof AllAnswers]?: FakeAnswer<AllAnswers[K]> };

/** One route whose path is computed (a table of cases): typed by the contract like a literal one. */
export const routes = <K extends keyof AllAnswers>(path: K, answer: FakeAnswer<AllAnswers[K]>): FakeRoutes => ({ [path]: answer }) as FakeRoutes;

let active: { restore(): void } | undefined;

/** Puts the real network back (a test file's afterEach). */
export function restoreFakeApi(): void {
  active?.restore();
  active = undefined;
}

export function fakeApi(fakeRoutes: FakeRoutes): { requests: FakeRequest[]; restore(): void } {
  const routes = fakeRoutes as Record<string, FakeAnswer<unknown> | undefined>;
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
