// Whether the mail is flowing (issue 15): the Mail Flow screen, the shell's stalled banner, and an
// admin's Reprocess of one email.
import { http } from '../http.ts';

export interface MailboxFlow {
  source: string;
  state: 'connecting' | 'connected' | 'disconnected' | 'stopped' | string;
  last_error: string | null;
  last_sync_at: string | null;
  update_at: string;
  uid_validity: number | null;
  last_uid: number | null;
  checkpoint_at: string | null;
  waiting: number;
  processed_last_hour: number;
  processed_last_day: number;
}

export interface MailFailure {
  email_id: number;
  email_from: string;
  subject: string;
  reason: string;
  at: string;
  source: string | null;
}

export interface MailStall {
  stalled: boolean;
  reasons: string[];
  stall_after_seconds: number;
}

export interface MailFlow {
  mailboxes: MailboxFlow[];
  queue: { waiting: number; oldest_waiting_at: string | null; processed_last_hour: number; processed_last_day: number };
  failures: MailFailure[];
  stalled: MailStall;
}

export interface Reprocessed {
  id: number;
  /** False when no ingester runs beside the API: the email waits on the queue for one. */
  processed: boolean;
  category: string;
  processing_error: string | null;
  detail: string;
}

export const getMailFlow = async () => (await http.get<MailFlow>('/mail-flow/')).data;
export const getMailStall = async () => (await http.get<MailStall>('/mail-flow/stalled/')).data;
export const reprocessEmail = async (id: number | string) => (await http.post<Reprocessed>(`/admin/emails/${id}/reprocess/`)).data;
