// The IMAP mailbox: new messages (UID above the checkpoint) are fetched in batches, and each batch
// is stored in the same transaction that moves the checkpoint, so a crash loses and repeats nothing.
// Only one worker fetches at a time (the checkpoint row is locked with SKIP LOCKED); the others
// process the queue meanwhile.
import { lockCheckpoint, saveCheckpoint, storeMessage, type Db } from '@ejdesk/db';
import { mailboxName, type ImapFlow, type ImapSettings } from '@ejdesk/mailbox';
import { limits } from '../limits.ts';
import type { MemoryBudget } from '../memory.ts';
import { toNewMessage, type RawMessage } from '../message.ts';
import type { Summary } from '../summary.ts';

const BATCH_MESSAGES = 100;
const BATCH_BYTES = 16 * 1024 * 1024;
const HEADERS_KEPT = 64 * 1024;

interface Pending {
  uid: number;
  size: number;
}

/** Split the new UIDs into batches of at most BATCH_MESSAGES messages or BATCH_BYTES bytes. */
function batches(pending: Pending[]): Pending[][] {
  const out: Pending[][] = [];
  let batch: Pending[] = [];
  let bytes = 0;
  for (const p of pending) {
    if (batch.length && (batch.length >= BATCH_MESSAGES || bytes + p.size > BATCH_BYTES)) {
      out.push(batch);
      batch = [];
      bytes = 0;
    }
    batch.push(p);
    bytes += Math.min(p.size, limits.messageBytes);
  }
  if (batch.length) out.push(batch);
  return out;
}

async function fetchSources(client: ImapFlow, uids: number[], headersOnly: boolean): Promise<Map<number, { source: Buffer; internalDate?: Date }>> {
  const out = new Map<number, { source: Buffer; internalDate?: Date }>();
  if (uids.length === 0) return out;
  const query = { uid: true, internalDate: true, source: headersOnly ? { maxLength: HEADERS_KEPT } : true };
  for await (const m of client.fetch(uids.join(','), query, { uid: true })) {
    if (!m.source) continue;
    const internalDate = m.internalDate ? new Date(m.internalDate) : undefined;
    out.set(m.uid, { source: m.source, ...(internalDate && !Number.isNaN(internalDate.getTime()) ? { internalDate } : {}) });
  }
  return out;
}

/**
 * Store every message above the checkpoint. Returns 'busy' when another worker holds the
 * checkpoint (it is fetching), 'done' when the mailbox has nothing newer.
 */
export async function syncMailbox(client: ImapFlow, db: Db, settings: ImapSettings, summary: Summary, budget: MemoryBudget): Promise<'done' | 'busy'> {
  const source = mailboxName(settings);
  const lock = await client.getMailboxLock(settings.mailbox);
  try {
    const uidValidity = Number((client.mailbox as { uidValidity: bigint }).uidValidity);
    // A first look at the checkpoint (busy while another worker fetches) lists what is new; each
    // batch checks again under the lock, since another worker may have stored it meanwhile.
    const start = await db.transaction(async (tx) => lockCheckpoint(tx, source));
    if (!start) return 'busy';
    const after = start.uidValidity === uidValidity ? start.lastUid : 0;
    const pending: Pending[] = [];
    for await (const m of client.fetch(`${after + 1}:*`, { uid: true, size: true }, { uid: true })) {
      if (m.uid > after) pending.push({ uid: m.uid, size: m.size ?? 0 });
    }
    pending.sort((a, b) => a.uid - b.uid);
    for (const batch of batches(pending)) {
      // A batch's bytes wait for room beside the messages being processed (see MemoryBudget);
      // inside the transaction, as the lanes do, so that on the embedded database (one connection,
      // one transaction at a time) nobody waits for room while holding what the other needs.
      const bytes = batch.reduce((n, p) => n + Math.min(p.size, limits.messageBytes), 0);
      let held = false;
      const outcome = await db
        .transaction(async (tx) => {
          await budget.acquire(bytes);
          held = true;
          const checkpoint = await lockCheckpoint(tx, source);
          if (!checkpoint) return 'busy' as const;
          const last = checkpoint.uidValidity === uidValidity ? checkpoint.lastUid : 0;
          const todo = batch.filter((p) => p.uid > last);
          if (todo.length === 0) return 'stored' as const;
          const whole = await fetchSources(
            client,
            todo.filter((p) => p.size <= limits.messageBytes).map((p) => p.uid),
            false,
          );
          const partial = await fetchSources(
            client,
            todo.filter((p) => p.size > limits.messageBytes).map((p) => p.uid),
            true,
          );
          for (const p of todo) {
            const fetched = whole.get(p.uid) ?? partial.get(p.uid);
            if (!fetched) continue; // expunged meanwhile
            summary.seen++;
            const raw: RawMessage = {
              raw: fetched.source,
              size: p.size,
              origin: `${source}#uid=${p.uid}`,
              internalDate: fetched.internalDate,
              ...(partial.has(p.uid)
                ? { fetchError: `the message is ${limits.mb(p.size)}, over the ${limits.mb(limits.messageBytes)} limit: only its start was fetched` }
                : {}),
            };
            if (await storeMessage(tx, await toNewMessage(raw))) summary.stored++;
            else summary.alreadyStored++;
          }
          await saveCheckpoint(tx, source, { uidValidity, lastUid: todo.at(-1)!.uid });
          return 'stored' as const;
        })
        .finally(() => held && budget.release(bytes));
      if (outcome === 'busy') return 'busy';
    }
    return 'done';
  } finally {
    lock.release();
  }
}
