// Idempotency-Key on the API's writes (plugins/idempotency.ts), on both backends: a repeated key
// gets the first answer and writes nothing more, even when the repeats arrive together; the same
// key with another body is refused; a key is its user's own; an answer is kept a day; an answer
// holding a secret is not kept at all.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '@ejdesk/db';
import { admin, anotherOperator, backends, createTestApp, login, type TestApp } from './helpers.ts';

const columns = { order: ['atm_id', 'bank_name'], hidden: [] };
const change = (name: string) => ({ name, query: 'bank_name=harbor', columns });
const view = (name: string) => ({ list: 'email', ...change(name) });

describe.each(backends)('Idempotency-Key on %s', (backend) => {
  let t: TestApp;
  let operator: string;
  let other: string;
  let boss: string;
  beforeAll(async () => {
    t = await createTestApp(backend);
    operator = `JWT ${(await login(t.app)).access}`;
    other = await anotherOperator(t, 'second@example.com');
    boss = `JWT ${(await login(t.app, admin)).access}`;
  });
  afterAll(() => t.close());

  const call = (method: 'POST' | 'PUT' | 'DELETE', url: string, auth: string, key: string | undefined, payload?: unknown) =>
    t.app.inject({
      method,
      url,
      headers: {
        authorization: auth,
        ...(key === undefined ? {} : { 'idempotency-key': key }),
        ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
    });
  const viewsNamed = async (name: string) =>
    (await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from saved_views where name = ${name}`))[0]!.n;

  it('answers a repeated key with the first answer, marked replayed, and writes once', async () => {
    const first = await call('POST', '/api/views/', operator, 'view-key-1', view('Repeat me'));
    expect(first.statusCode).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await call('POST', '/api/views/', operator, 'view-key-1', view('Repeat me'));
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers['content-type']).toBe(first.headers['content-type']);
    expect(again.json()).toEqual(first.json());
    expect(await viewsNamed('Repeat me')).toBe(1);
    // Without the key the same request is a new one: this name exists now.
    const unkeyed = await call('POST', '/api/views/', operator, undefined, view('Repeat me'));
    expect(unkeyed.statusCode).toBe(409);
  });

  it('refuses a key reused with another body (422) and writes nothing', async () => {
    expect((await call('POST', '/api/views/', operator, 'view-key-2', view('First body'))).statusCode).toBe(201);
    const reused = await call('POST', '/api/views/', operator, 'view-key-2', view('Second body'));
    expect(reused.statusCode).toBe(422);
    expect(reused.json()).toEqual({ detail: expect.stringMatching(/Idempotency-Key was used for another request/) });
    expect(await viewsNamed('Second body')).toBe(0);
    // Another path with the same key is another request too.
    const { id } = (await call('POST', '/api/views/', operator, 'view-key-2', view('First body'))).json() as { id: number };
    const elsewhere = await call('PUT', `/api/views/${id}/`, operator, 'view-key-2', change('First body'));
    expect(elsewhere.statusCode).toBe(422);
  });

  it('gives parallel repeats of one key one write and one answer', async () => {
    const answers = await Promise.all(Array.from({ length: 12 }, () => call('POST', '/api/views/', operator, 'view-key-3', view('Together'))));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(12).fill(201));
    expect(new Set(answers.map((a) => a.body)).size).toBe(1);
    expect(answers.filter((a) => a.headers['idempotent-replayed'] === 'true')).toHaveLength(11);
    expect(await viewsNamed('Together')).toBe(1);
  });

  it("treats another user's use of a key as their own request: never the first user's answer", async () => {
    const mine = await call('POST', '/api/views/', operator, 'shared-key', view('Mine'));
    expect(mine.statusCode).toBe(201);
    const theirs = await call('POST', '/api/views/', other, 'shared-key', view('Mine'));
    expect(theirs.statusCode).toBe(201);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(theirs.json().id).not.toBe(mine.json().id);
    expect(await viewsNamed('Mine')).toBe(2);
    // And a third user's different body under that key is not refused: the key is not theirs yet.
    expect(
      (await call('POST', '/api/admin/sender-mappings/', boss, 'shared-key', { sender: 'keyed@bank.example', organisation: 'Keyed Bank' })).statusCode,
    ).toBe(201);
  });

  it('keeps an answer a day: an expired key is a new request', async () => {
    const first = await call('POST', '/api/views/', operator, 'view-key-4', view('Yesterday'));
    expect(first.statusCode).toBe(201);
    await t.database.db.execute(sql`update idempotency_keys set created_at = now() - interval '25 hours' where key = 'view-key-4'`);
    // The name exists, so the request run again is refused: the old answer is not replayed.
    const later = await call('POST', '/api/views/', operator, 'view-key-4', view('Yesterday'));
    expect(later.statusCode).toBe(409);
    expect(later.headers['idempotent-replayed']).toBeUndefined();
    // That answer is now the key's, for the next day.
    const again = await call('POST', '/api/views/', operator, 'view-key-4', view('Yesterday'));
    expect([again.statusCode, again.headers['idempotent-replayed'], again.body]).toEqual([409, 'true', later.body]);
  });

  it('replays a delete and an update: the second DELETE is 204, not 404', async () => {
    const id = (await call('POST', '/api/views/', operator, undefined, view('To delete'))).json().id as number;
    const renamed = await call('PUT', `/api/views/${id}/`, operator, 'put-key', change('Renamed'));
    expect(renamed.statusCode).toBe(200);
    expect((await call('PUT', `/api/views/${id}/`, operator, 'put-key', change('Renamed'))).body).toBe(renamed.body);
    expect((await call('DELETE', `/api/views/${id}/`, operator, 'delete-key')).statusCode).toBe(204);
    const repeated = await call('DELETE', `/api/views/${id}/`, operator, 'delete-key');
    expect([repeated.statusCode, repeated.headers['idempotent-replayed']]).toEqual([204, 'true']);
    expect((await call('DELETE', `/api/views/${id}/`, operator, 'another-delete-key')).statusCode).toBe(404);
  });

  it('keeps no answer that holds a secret: a repeated deploy-token creation is refused, the token is not stored', async () => {
    const created = await call('POST', '/api/registry/tokens/', boss, 'token-key', { name: 'ci-bot', remote: 'admin' });
    expect(created.statusCode).toBe(201);
    const { token } = created.json() as { token: string };
    const repeated = await call('POST', '/api/registry/tokens/', boss, 'token-key', { name: 'ci-bot', remote: 'admin' });
    expect(repeated.statusCode).toBe(409);
    expect(JSON.stringify(repeated.json())).not.toContain(token);
    const kept = await queryRows<{ body: string | null; request_hash: string }>(
      t.database.db,
      sql`select body, request_hash from idempotency_keys where key = 'token-key'`,
    );
    expect(kept).toEqual([{ body: null, request_hash: expect.any(String) }]);
  });

  it('keeps no password in the clear or as a plain hash: the fingerprint is keyed', async () => {
    const body = { old_password: 'correct horse battery', new_password: 'a brand new passphrase' };
    const changed = await call('POST', '/api/auth/jwt/password/', operator, 'password-key', body);
    expect(changed.statusCode).toBe(204);
    // The answer is kept (a retry after a lost answer is told it worked, not that the old password is wrong).
    const retried = await call('POST', '/api/auth/jwt/password/', operator, 'password-key', body);
    expect([retried.statusCode, retried.headers['idempotent-replayed']]).toEqual([204, 'true']);
    const rows = await queryRows<Record<string, unknown>>(t.database.db, sql`select * from idempotency_keys where key = 'password-key'`);
    expect(JSON.stringify(rows)).not.toContain('brand new');
    const { createHash } = await import('node:crypto');
    const plain = createHash('sha256')
      .update(JSON.stringify(['POST', '/api/auth/jwt/password/', body]))
      .digest('base64url');
    expect(rows[0]!.request_hash).not.toBe(plain);
  });

  it('ends an open transaction once: a commit asked after its rollback is refused, and nothing is written', async () => {
    const open = await t.database.begin();
    await open.tx.execute(sql`insert into mail_senders (sender, organisation) values ('rolled@bank.example', 'Rolled Bank')`);
    await open.end(false);
    await expect(open.end(true)).rejects.toThrow(/rolled back/);
    const rows = await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from mail_senders where sender = 'rolled@bank.example'`);
    expect(rows[0]!.n).toBe(0);
  });

  // The path a restart of PostgreSQL takes when it catches a write mid-transaction, made to happen
  // every time: the write waits on a lock this test holds, its connection is ended by the server
  // (as a restart ends it), and the write runs again on a new connection once the lock is let go.
  it.runIf(backend === 'postgres')('runs a write again when its connection drops mid-transaction, and writes it once', async () => {
    const msp = 'Dropped Midway';
    const waiting = async () =>
      (
        await queryRows<{ pid: number }>(
          t.database.db,
          sql`select pid from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query like 'insert into "bank_msps"%'`,
        )
      ).map((r) => r.pid);
    const until = async (what: string, check: () => Promise<boolean>) => {
      for (const deadline = Date.now() + 60_000; !(await check()); await new Promise((r) => setTimeout(r, 50)))
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    };
    let answer: ReturnType<typeof call> | undefined;
    await t.database.db.transaction(async (tx) => {
      await tx.execute(sql`lock table bank_msps in share row exclusive mode`);
      answer = call('POST', '/api/scrape/bank/msp/create/', boss, 'dropped-midway', { msp, bank_name: 'Dropped Bank' });
      let answered: string | undefined;
      void answer.then((r) => (answered = `${r.statusCode} ${r.body}`));
      let first: number[] = [];
      await until('the write to wait on the lock', async () => (first = await waiting()).length === 1);
      await queryRows(t.database.db, sql`select pg_terminate_backend(${first[0]!})`);
      // Run again on another connection: it waits on the lock once more, until this transaction ends.
      await until('the write to run again', async () => {
        if (answered) throw new Error(`answered before the lock was let go: ${answered}`);
        const now = await waiting();
        return now.length === 1 && now[0] !== first[0];
      });
    });
    const response = await answer!;
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({ msp, bank_name: 'Dropped Bank' });
    const stored = await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from bank_msps where msp = ${msp}`);
    expect(stored[0]!.n).toBe(1);
    const audited = await queryRows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from audit_log where entity = 'bank_msp' and action = 'create' and entity_id = ${String(response.json<{ id: number }>().id)}`,
    );
    expect(audited[0]!.n).toBe(1);
    // The key holds the one answer: a repeat replays it and writes nothing more.
    const repeat = await call('POST', '/api/scrape/bank/msp/create/', boss, 'dropped-midway', { msp, bank_name: 'Dropped Bank' });
    expect(repeat.headers['idempotent-replayed']).toBe('true');
    expect(repeat.body).toBe(response.body);
  });

  it('refuses a malformed key with 400 and writes nothing', async () => {
    for (const key of ['', 'x'.repeat(201), 'with space', 'ünïcode']) {
      const answer = await call('POST', '/api/views/', other, key, view(`Bad key ${key.length}`));
      expect(answer.statusCode, key).toBe(400);
      expect(answer.json()).toEqual({ detail: expect.stringMatching(/Idempotency-Key/) });
    }
    expect(await viewsNamed('Bad key 0')).toBe(0);
  });
});
