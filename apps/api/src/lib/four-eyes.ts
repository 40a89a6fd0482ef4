// Four eyes on an admin list (the TAT rules, the bank passwords): a change an admin has put under
// approval is made a request instead (202), done when a second admin approves it
// (routes/disputes/approvals.ts applies it). Shared by the lists' routes.
import type { FastifyReply } from 'fastify';
import { fourEyesOn, makeRequest, type Db, type FourEyesAction } from '@ejdesk/db';

/** A change of an admin list as a request holds it: the operation, the row, and the body as sent (a password sealed). */
export interface ListChange {
  op: 'create' | 'change' | 'delete';
  id?: number | undefined;
  body?: Record<string, unknown> | undefined;
}

/** Makes the change a request when four eyes holds `action`, answering 202, and says so (true); false: do it now. */
export async function heldListChange(
  db: Db,
  reply: FastifyReply,
  action: Extract<FourEyesAction, 'tat_rule' | 'bank_password'>,
  change: ListChange,
  summary: string,
  maker: { id: number; email: string },
): Promise<boolean> {
  if (!(await fourEyesOn(db, action))) return false;
  const request = await makeRequest(db, { action, payload: change as unknown as Record<string, unknown>, summary, matchedThen: 0, maker });
  // Sent here, and true said: a reply is a thenable, so an async function cannot hand it back.
  void reply.code(202).send({ request, detail: `Sent for approval: another admin must approve it (request ${request.id}).` });
  return true;
}
