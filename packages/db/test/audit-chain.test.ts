// The audit log's hash chain on both backends: the database's hash (SQL) and the walker's (Node)
// agree on every kind of content; the product cannot change or remove an entry; parallel writers
// still make one chain in id order; and a database administrator who edits, deletes or inserts a
// row with the triggers off is named by the walk, each kind for what it is.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { audit, chainBatches, chainStart, entryHash, extendAuditChain, queryRows, verifyAuditChain, walkChain, type Database, type Db } from '../src/index.ts';
import { backends, migrated } from './backends.ts';

/** As a database administrator with the triggers off (the product's own refusal bypassed). */
async function asAdministrator(db: Db, statement: ReturnType<typeof sql>) {
  await db.transaction(async (tx) => {
    await tx.execute(sql`set local session_replication_role = replica`);
    await tx.execute(statement);
  });
}

/** The database's own words for a refused statement (drizzle wraps them). */
async function refusal(statement: Promise<unknown>): Promise<string> {
  try {
    await statement;
  } catch (error) {
    return String((error as { cause?: { message?: string } }).cause?.message ?? (error as Error).message);
  }
  return 'not refused';
}

async function all<T>(batches: AsyncIterable<T[]>): Promise<T[]> {
  const rows: T[] = [];
  for await (const batch of batches) rows.push(...batch);
  return rows;
}

describe.each(backends)('the audit chain on %s', (backend) => {
  let database: Database;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ database, drop } = await migrated(backend));
  }, 60_000);
  afterAll(() => drop());

  const ids = async () => (await queryRows<{ id: number }>(database.db, sql`select id::float8 as id from audit_log order by id`)).map((r) => r.id);

  beforeEach(async () => {
    // Each test starts from a chain that holds.
    await asAdministrator(database.db, sql`delete from audit_log`);
    await database.db.execute(sql`update audit_chain_head set last_id = 0, last_hash = ${chainStart}, entries = 0`);
  });

  it('hashes in SQL what the walker hashes in Node, for every kind of content', async () => {
    const contents = [
      { userId: null, action: 'login_failed', entity: 'user', entityId: null, ip: '203.0.113.9', detail: null },
      { userId: null, action: 'create', entity: 'tat_rule', entityId: '7', detail: 'RBI "T+5" — ₹100/day; emoji 🏧' },
      { userId: null, action: 'change', entity: 'bank', entityId: '', ip: null, detail: 'two\nlines|and a pipe' },
      // Fields whose edges move: the lengths keep them apart.
      { userId: null, action: 'ab', entity: 'c', entityId: null, detail: null },
      { userId: null, action: 'a', entity: 'bc', entityId: null, detail: null },
    ];
    for (const row of contents) await audit(database.db, row);
    expect(await extendAuditChain(database.db, true)).toBe(contents.length);
    const entries = await all(chainBatches(database.db));
    expect(entries).toHaveLength(contents.length);
    expect(entries[0]!.prev_hash).toBe(chainStart);
    for (const [i, entry] of entries.entries()) {
      expect(entry.hash).toBe(entryHash(entry.prev_hash, entry));
      if (i > 0) expect(entry.prev_hash).toBe(entries[i - 1]!.hash);
    }
    expect(entries[3]!.hash).not.toBe(entryHash(entries[3]!.prev_hash, { ...entries[4]!, at: entries[3]!.at }));
    const report = await verifyAuditChain(database.db);
    expect(report).toMatchObject({ ok: true, entries: 5, first: null, last_hash: entries[4]!.hash });
  });

  it('writes an entry unchained whatever a caller gives, chains it after, and refuses any other change', async () => {
    await database.db.execute(sql`insert into audit_log (action, entity, chain_seq, prev_hash, hash) values ('create', 'x', 1, 'forged', 'forged')`);
    const read = () =>
      queryRows<{ chain_seq: number | null; prev_hash: string }>(database.db, sql`select chain_seq::float8 as chain_seq, prev_hash from audit_log`);
    expect(await read()).toEqual([{ chain_seq: null, prev_hash: '' }]);
    // Its content cannot change before it is chained either.
    expect(await refusal(database.db.execute(sql`update audit_log set detail = 'edited', chain_seq = 1`))).toMatch(/never changed or removed/);
    expect(await extendAuditChain(database.db, true)).toBe(1);
    expect(await read()).toEqual([{ chain_seq: 1, prev_hash: chainStart }]);
    expect(await refusal(database.db.execute(sql`update audit_log set detail = 'edited'`))).toMatch(/never changed or removed/);
    expect(await refusal(database.db.execute(sql`delete from audit_log`))).toMatch(/never changed or removed/);
    expect((await verifyAuditChain(database.db)).ok).toBe(true);
  });

  // PGlite is one connection: a transaction left open holds it, so this is PostgreSQL's alone.
  it.runIf(backend === 'postgres')('never makes a writer wait for another: an entry of a transaction still open is chained once it commits', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const slow = database.db.transaction(async (tx) => {
      await audit(tx as unknown as Db, { userId: null, action: 'status', entity: 'dispute', entityId: 'bulk' });
      await held;
    });
    // Meanwhile others write and are chained; the open one is not seen yet.
    await new Promise((r) => setTimeout(r, 50));
    await audit(database.db, { userId: null, action: 'login', entity: 'session' });
    await audit(database.db, { userId: null, action: 'logout', entity: 'session' });
    expect((await verifyAuditChain(database.db)).entries).toBe(2);
    release();
    await slow;
    const report = await verifyAuditChain(database.db);
    expect(report).toMatchObject({ ok: true, entries: 3 });
    expect((await all(chainBatches(database.db))).map((e) => e.action)).toEqual(['login', 'logout', 'status']);
  });

  it('makes one chain of entries written in parallel, in id order', async () => {
    await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        database.db.transaction(async (tx) => audit(tx as unknown as Db, { userId: null, action: 'create', entity: 'n', entityId: String(i) })),
      ),
    );
    const report = await verifyAuditChain(database.db);
    expect(report).toMatchObject({ ok: true, entries: 24 });
    const [head] = await queryRows<{ entries: number; last_id: number }>(
      database.db,
      sql`select entries::int, last_id::float8 as last_id from audit_chain_head`,
    );
    expect(head).toEqual({ entries: 24, last_id: (await ids()).at(-1) });
  });

  it('names an entry edited, one deleted and one inserted behind its back, each for what it is', async () => {
    for (let i = 1; i <= 8; i += 1)
      await audit(database.db, { userId: null, action: 'change', entity: 'sender_mapping', entityId: String(i), detail: `entry ${i}` });
    await extendAuditChain(database.db, true);
    const [, second, third, fourth, fifth, sixth, , eighth] = await ids();

    // Edited: the third entry's detail.
    await asAdministrator(database.db, sql`update audit_log set detail = 'entry 3, kinder' where id = ${third}`);
    let report = await verifyAuditChain(database.db);
    expect(report.first).toMatchObject({ kind: 'changed', id: third });
    expect(report.problems).toHaveLength(1);
    await asAdministrator(database.db, sql`update audit_log set detail = 'entry 3' where id = ${third}`);
    expect((await verifyAuditChain(database.db)).ok).toBe(true);

    // Deleted: the fifth entry; the sixth links to nothing read.
    const [removed] = await queryRows<Record<string, unknown>>(database.db, sql`select * from audit_log where id = ${fifth}`);
    await asAdministrator(database.db, sql`delete from audit_log where id = ${fifth}`);
    report = await verifyAuditChain(database.db);
    expect(report.first).toMatchObject({ kind: 'removed', id: sixth });
    expect(report.first!.detail).toContain(`between ${fourth} and ${sixth}`);
    await asAdministrator(database.db, sql`insert into audit_log select * from json_populate_record(null::audit_log, ${JSON.stringify(removed)}::json)`);
    expect((await verifyAuditChain(database.db)).ok).toBe(true);

    // Inserted: a well-formed entry slipped in after the second, hashed as the chain would, the
    // places after it moved on by one as a forger would.
    const [after] = await queryRows<{ hash: string; chain_seq: number }>(
      database.db,
      sql`select hash, chain_seq::float8 as chain_seq from audit_log where id = ${second}`,
    );
    const forged = {
      at: '2026-01-01T00:00:00.000000Z',
      user_id: null,
      action: 'delete',
      entity: 'bank_password',
      entity_id: '1',
      ip: null,
      detail: 'never happened',
    };
    await asAdministrator(database.db, sql`update audit_log set chain_seq = chain_seq + 1000 where chain_seq > ${after!.chain_seq}`);
    await asAdministrator(database.db, sql`update audit_log set chain_seq = chain_seq - 999 where chain_seq > 1000`);
    await asAdministrator(
      database.db,
      sql`insert into audit_log (id, chain_seq, at, user_id, action, entity, entity_id, prev_hash, hash)
          values (1000000, ${after!.chain_seq + 1}, ${forged.at}::timestamptz, null, ${forged.action}, ${forged.entity}, ${forged.entity_id}, ${after!.hash}, ${entryHash(after!.hash, forged)})`,
    );
    report = await verifyAuditChain(database.db);
    expect(report.problems.map((p) => p.kind)).toEqual(['inserted']);
    expect(report.first).toMatchObject({ kind: 'inserted', id: 1000000 });

    // The newest entry removed: only the head can tell.
    await asAdministrator(database.db, sql`delete from audit_log where id = 1000000 or id = ${eighth}`);
    report = await verifyAuditChain(database.db);
    expect(report.problems.map((p) => p.kind)).toEqual(['removed_newest']);
  });

  it('walks an exported range from its first link, and names a broken one there too', async () => {
    for (let i = 1; i <= 4; i += 1) await audit(database.db, { userId: null, action: 'create', entity: 'n', entityId: String(i) });
    await extendAuditChain(database.db, true);
    const entries = (await all(chainBatches(database.db))).slice(1);
    async function* once(rows: typeof entries) {
      yield rows;
    }
    expect((await walkChain(once(entries), { startHash: entries[0]!.prev_hash })).ok).toBe(true);
    const edited = entries.map((e, i) => (i === 1 ? { ...e, entity_id: '99' } : e));
    expect((await walkChain(once(edited), { startHash: entries[0]!.prev_hash })).first).toMatchObject({ kind: 'changed', id: entries[1]!.id });
  });
});
