// Whether the mail is flowing: the Mail Flow screen, the shell's stalled banner, and an
// admin's Reprocess of one email.
import type { Answer } from '@ejdesk/contract';
import type * as flow from '@ejdesk/contract/schemas/mail-flow.ts';
import { http } from '../http.ts';

export type MailFlow = Answer<typeof flow.MailFlow>;
/** One watched mailbox: its state (connecting, connected, disconnected, stopped), checkpoint and counts. */
export type MailboxFlow = MailFlow['mailboxes'][number];
export type MailFailure = MailFlow['failures'][number];
export type MailStall = Answer<typeof flow.Stall>;
/** processed is false when no ingester runs beside the API: the email waits on the queue for one. */
export type Reprocessed = Answer<typeof flow.Reprocessed>;

export const getMailFlow = async () => (await http.get<MailFlow>('/mail-flow/')).data;
export const getMailStall = async () => (await http.get<MailStall>('/mail-flow/stalled/')).data;
export const reprocessEmail = async (id: number | string) => (await http.post<Reprocessed>(`/admin/emails/${id}/reprocess/`)).data;
