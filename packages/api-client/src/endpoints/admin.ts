import { formData, http } from '../http.ts';
import type { RequestMade } from './approvals.ts';
import type { Answer, RequestBody } from '@ejdesk/contract';
import type * as accounts from '@ejdesk/contract/schemas/accounts.ts';
import type * as rules from '@ejdesk/contract/schemas/rules.ts';
import type * as mailboxes from '@ejdesk/contract/schemas/mailboxes.ts';
import type { BankMsp, BankPassword, RevealedBankPassword } from '../types.ts';

export const listBankPasswords = async () => (await http.get<BankPassword[]>('/scrape/store/password/list/')).data;

export const createBankPassword = async (fields: { bank_name: string; bank_pass: string }) =>
  (await http.post<BankPassword>('/scrape/store/password/create/', formData(fields))).data;

/** The clear password; the reason is kept in the audit log beside the reveal. */
export const revealBankPassword = async (id: number, reason: string) =>
  (await http.post<RevealedBankPassword>(`/scrape/store/password/${id}/reveal/`, { reason })).data;

/** A rotated password (sealed again) or a renamed bank; an empty password keeps the stored one. */
export const changeBankPassword = async (id: number, fields: { bank_name: string; bank_pass: string }) =>
  (await http.put<BankPassword>(`/scrape/store/password/${id}/`, { bank_name: fields.bank_name, ...(fields.bank_pass ? { bank_pass: fields.bank_pass } : {}) }))
    .data;

/** Nothing when deleted; the request made when four eyes holds it for a second admin. */
export const deleteBankPassword = async (id: number) => (await http.delete<RequestMade | ''>(`/scrape/store/password/${id}/`)).data || undefined;

export const changeBankMsp = async (id: number, fields: { msp: string; bank_name: string }) =>
  (await http.put<BankMsp>(`/scrape/bank/msp/${id}/`, fields)).data;

export const deleteBankMsp = async (id: number) => {
  await http.delete(`/scrape/bank/msp/${id}/`);
};

export const listBankMsps = async () => (await http.get<BankMsp[]>('/scrape/bank/msp/list/')).data;

export const createBankMsp = async (fields: { msp: string; bank_name: string }) =>
  (await http.post<BankMsp>('/scrape/bank/msp/create/', formData(fields))).data;

/** An account as the Users screen shows it (never its password); must_change_password after a reset. */
export type Account = Answer<typeof accounts.Account>;

export const listAccounts = async () => (await http.get<Account[]>('/admin/users/')).data;

export const createAccount = async (fields: { email: string; password: string; role: string }) => (await http.post<Account>('/admin/users/', fields)).data;

export const changeAccount = async (id: number, change: { role?: Account['role']; is_active?: boolean }) =>
  (await http.patch<Account>(`/admin/users/${id}/`, change)).data;

/** Gives the user a password they must replace with their own at the next login. */
export const resetAccountPassword = async (id: number, password: string) => (await http.post<Account>(`/admin/users/${id}/reset-password/`, { password })).data;

/** Which bank or MSP mails from an address or a whole @domain (the ingester's sender mapping). */
export type SenderMapping = Answer<typeof rules.SenderMapping>;
/** Mail whose sender or subject contains the pattern (any case) is ignored. */
export type IgnoreRule = Answer<typeof rules.IgnoreRule>;
type SenderMappingFields = { sender: string; organisation: string };
type IgnoreRuleFields = { field: string; pattern: string };

export const listSenderMappings = async () => (await http.get<SenderMapping[]>('/admin/sender-mappings/')).data;
export const createSenderMapping = async (fields: SenderMappingFields) => (await http.post<SenderMapping>('/admin/sender-mappings/', fields)).data;
export const changeSenderMapping = async (id: number, fields: SenderMappingFields) =>
  (await http.put<SenderMapping>(`/admin/sender-mappings/${id}/`, fields)).data;
export const deleteSenderMapping = async (id: number) => void (await http.delete(`/admin/sender-mappings/${id}/`));

export const listIgnoreRules = async () => (await http.get<IgnoreRule[]>('/admin/ignore-rules/')).data;
export const createIgnoreRule = async (fields: IgnoreRuleFields) => (await http.post<IgnoreRule>('/admin/ignore-rules/', fields)).data;
export const changeIgnoreRule = async (id: number, fields: IgnoreRuleFields) => (await http.put<IgnoreRule>(`/admin/ignore-rules/${id}/`, fields)).data;
export const deleteIgnoreRule = async (id: number) => void (await http.delete(`/admin/ignore-rules/${id}/`));

/** A mailbox the ingester watches; secrets are write-only (`has_secret` says whether one is stored). */
export type Mailbox = Answer<typeof mailboxes.Mailbox>;
export type MailboxFields = RequestBody<typeof mailboxes.MailboxBody>;
export type ConnectionTest = Answer<typeof mailboxes.ConnectionTest>;

export const listMailboxes = async () => (await http.get<Mailbox[]>('/admin/mailboxes/')).data;
export const createMailbox = async (fields: MailboxFields) => (await http.post<Mailbox>('/admin/mailboxes/', fields)).data;
export const changeMailbox = async (id: number, fields: MailboxFields) => (await http.put<Mailbox>(`/admin/mailboxes/${id}/`, fields)).data;
export const deleteMailbox = async (id: number) => void (await http.delete(`/admin/mailboxes/${id}/`));
/** Sign in and open the folder with the form's settings (with `id`, its stored secrets fill what the form leaves out). */
export const testMailbox = async (fields: MailboxFields & { id?: number }) => (await http.post<ConnectionTest>('/admin/mailboxes/test/', fields)).data;
