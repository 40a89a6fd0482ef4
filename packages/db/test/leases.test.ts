// Mailbox leases over several mailboxes at once: each mailbox is held by one worker, renewed by its
// holder, taken from a holder whose lease lapsed, and never given to two workers asking at the same
// moment (16 at once on PostgreSQL, each for the same mailboxes listed in a different order).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leaseMailboxes, queryRows, releaseMailboxes, type Database } from '../src/index.ts';
import { backends, migrated } from './backends.ts';

const held = async (database: Database) =>
  Object.fromEntries(
    (await queryRows<{ source: string; holder: string }>(database.db, sql`select source, holder from mailbox_leases where expires_at > now()`)).map((r) => [
      r.source,
      r.holder,
    ]),
  );

describe.each(backends)('mailbox leases on %s', (backend) => {
  let database: Database;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ database, drop } = await migrated(backend));
  }, 60_000);
  afterAll(() => drop());

  it('gives each mailbox to one worker, renews it for its holder, and lets another take a lapsed one', async () => {
    expect(await leaseMailboxes(database.db, 'a', ['imap://one', 'imap://two'], 30)).toEqual(new Set(['imap://one', 'imap://two']));
    expect(await leaseMailboxes(database.db, 'b', ['imap://two', 'imap://three', 'imap://three'], 30)).toEqual(new Set(['imap://three']));
    expect(await leaseMailboxes(database.db, 'a', ['imap://one', 'imap://two'], 30)).toEqual(new Set(['imap://one', 'imap://two']));
    expect(await held(database)).toEqual({ 'imap://one': 'a', 'imap://two': 'a', 'imap://three': 'b' });
    // a's leases lapse (its worker died): b takes them at its next round.
    await database.db.execute(sql`update mailbox_leases set expires_at = now() - interval '1 second' where holder = 'a'`);
    expect(await leaseMailboxes(database.db, 'b', ['imap://one', 'imap://two', 'imap://three'], 30)).toEqual(
      new Set(['imap://one', 'imap://two', 'imap://three']),
    );
    expect(await leaseMailboxes(database.db, 'a', ['imap://one'], 30)).toEqual(new Set());
    expect(await leaseMailboxes(database.db, 'a', [], 30)).toEqual(new Set());
    await releaseMailboxes(database.db, 'b');
    expect(await held(database)).toEqual({});
  });

  it.runIf(backend === 'postgres')('never gives a mailbox to two of 16 workers asking at once', async () => {
    const sources = Array.from({ length: 6 }, (_, i) => `imap://box-${i}`);
    for (let round = 0; round < 5; round++) {
      await releaseMailboxes(database.db, null);
      const answers = await Promise.all(
        Array.from({ length: 16 }, (_, w) => leaseMailboxes(database.db, `worker-${w}`, w % 2 ? [...sources].reverse() : sources, 30)),
      );
      const given = answers.flatMap((set) => [...set]);
      expect(given.sort()).toEqual([...sources].sort());
      const holders = await held(database);
      answers.forEach((set, w) => set.forEach((source) => expect(holders[source]).toBe(`worker-${w}`)));
    }
  });
});
