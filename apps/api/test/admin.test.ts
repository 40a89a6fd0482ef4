import { auditLog, bankPasswords } from '@ejdesk/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, backends, createTestApp, login, multipart, type TestApp } from './helpers.ts';

describe.each(backends)('admin lists on %s', (backend) => {
  let t: TestApp;
  let authorization: string;
  beforeAll(async () => {
    t = await createTestApp(backend);
    authorization = `JWT ${(await login(t.app, admin)).access}`;
  });
  afterAll(() => t.close());

  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: { authorization } });
  const post = (url: string, payload?: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url, payload: payload as string, headers: { authorization, ...headers } });
  /** A refused create: 400 with a detail that names the problem, and the list unchanged. */
  const expectRefused = async (list: string, create: string, body: unknown, detail: RegExp) => {
    const before = (await get(list)).json().length;
    const response = await post(create, body);
    expect(response.statusCode).toBe(400);
    expect(response.json().detail).toMatch(detail);
    expect((await get(list)).json()).toHaveLength(before);
  };
  const postForm = (url: string, fields: Record<string, string>) => {
    const { payload, headers } = multipart(fields);
    return post(url, payload, headers);
  };

  describe('stored bank passwords', () => {
    const list = '/api/scrape/store/password/list/';
    const create = '/api/scrape/store/password/create/';

    it('creates from multipart, JSON and urlencoded bodies and lists them masked', async () => {
      const created = await postForm(create, { bank_name: 'Harbor Bank', bank_pass: 'S3cret!pdf' });
      expect(created.statusCode).toBe(201);
      expect(created.json()).toMatchObject({ id: expect.any(Number), bank_name: 'Harbor Bank', bank_pass: '••••••••' });
      expect((await post(create, { bank_name: 'Apex Bank', bank_pass: 'apex-2024' })).statusCode).toBe(201);
      const form = new URLSearchParams({ bank_name: '  Unity Bank ', bank_pass: 'u' }).toString();
      expect((await post(create, form, { 'content-type': 'application/x-www-form-urlencoded' })).statusCode).toBe(201);

      const rows = (await get(list)).json();
      expect(rows.map((r: { bank_name: string }) => r.bank_name)).toEqual(['Unity Bank', 'Apex Bank', 'Harbor Bank']);
      for (const row of rows) {
        expect(Object.keys(row).sort()).toEqual(['bank_name', 'bank_pass', 'create_at', 'id', 'update_at']);
        expect(row.bank_pass).toBe('••••••••');
        expect(new Date(row.create_at).getTime()).not.toBeNaN();
      }
    });

    it('stores the password encrypted, and reveals it once per request with an audit entry', async () => {
      const [stored] = await t.database.db.select().from(bankPasswords).limit(1);
      expect(stored!.bankPassEncrypted.includes(Buffer.from('S3cret!pdf'))).toBe(false);

      const harbor = (await get(list)).json().find((r: { bank_name: string }) => r.bank_name === 'Harbor Bank');
      const reveal = (id: unknown, body: unknown = { reason: 'Opening the March statement PDF' }) => post(`/api/scrape/store/password/${id}/reveal/`, body);
      const revealed = await reveal(harbor.id);
      expect(revealed.statusCode).toBe(200);
      expect(revealed.json()).toEqual({ id: harbor.id, bank_name: 'Harbor Bank', bank_pass: 'S3cret!pdf' });
      const audit = await t.database.db.select().from(auditLog);
      expect(audit).toContainEqual(
        expect.objectContaining({
          action: 'reveal',
          entity: 'bank_password',
          entityId: String(harbor.id),
          userId: expect.any(Number),
          detail: 'Opening the March statement PDF',
        }),
      );

      // No reason, no password: each refusal is a 400 naming the reason, and leaves no audit row.
      for (const body of [null, {}, { reason: '' }, { reason: '   ' }, { reason: 'x'.repeat(501) }, { reason: 'ok', extra: 1 }]) {
        const refused = body === null ? await post(`/api/scrape/store/password/${harbor.id}/reveal/`) : await reveal(harbor.id, body);
        expect(refused.statusCode, JSON.stringify(body)).toBe(400);
        expect(refused.json().detail).toEqual(expect.any(String));
        expect(refused.json()).not.toHaveProperty('bank_pass');
      }
      expect(await t.database.db.select().from(auditLog)).toHaveLength(audit.length);

      expect((await reveal(999999)).statusCode).toBe(404);
      const bad = await reveal('abc');
      expect(bad.statusCode).toBe(400);
      expect(bad.json().detail).toMatch(/path 'id'/);
    });

    it.each([
      ['a missing bank_pass', { bank_name: 'Meridian Bank' }, /'bank_pass' is required/],
      ['an empty bank_name', { bank_name: '', bank_pass: 'x' }, /'bank_name'/],
      ['a blank bank_name', { bank_name: '   ', bank_pass: 'x' }, /'bank_name'/],
      ['an extra field', { bank_name: 'Meridian Bank', bank_pass: 'x', id: 1 }, /unknown field 'id'/],
      ['a number for bank_name', { bank_name: 42, bank_pass: 'x' }, /'bank_name'.*string/],
      ['an oversized bank_name', { bank_name: 'B'.repeat(201), bank_pass: 'x' }, /'bank_name'.*200/],
      ['an oversized bank_pass', { bank_name: 'Meridian Bank', bank_pass: 'p'.repeat(257) }, /'bank_pass'.*256/],
      ['a duplicate bank, in any case', { bank_name: 'HARBOR BANK', bank_pass: 'other' }, /already stored/],
    ])('refuses %s with 400 and stores nothing', (_name, body, detail) => expectRefused(list, create, body, detail));

    it('refuses malformed JSON, a file upload and repeated fields', async () => {
      const malformed = await post(create, '{"bank_name":', { 'content-type': 'application/json' });
      expect(malformed.statusCode).toBe(400);
      const boundary = 'xyz';
      const upload = await post(
        create,
        `--${boundary}\r\nContent-Disposition: form-data; name="bank_name"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nhello\r\n--${boundary}--\r\n`,
        { 'content-type': `multipart/form-data; boundary=${boundary}` },
      );
      expect(upload.statusCode).toBeGreaterThanOrEqual(400);
      expect(upload.statusCode).toBeLessThan(500);
      expect(upload.json()).toHaveProperty('detail');
      const repeated = await post(create, 'bank_name=a&bank_name=b&bank_pass=x', {
        'content-type': 'application/x-www-form-urlencoded',
      });
      expect(repeated.statusCode).toBe(400);
    });
  });

  describe('bank -> MSP mapping', () => {
    const list = '/api/scrape/bank/msp/list/';
    const create = '/api/scrape/bank/msp/create/';

    it('creates and lists mappings, newest first', async () => {
      const first = await postForm(create, { msp: 'Atlas ATM Services', bank_name: 'Harbor Bank' });
      expect(first.statusCode).toBe(201);
      expect(first.json()).toMatchObject({ msp: 'Atlas ATM Services', bank_name: 'Harbor Bank' });
      expect((await post(create, { msp: 'Vertex Payments', bank_name: 'Harbor Bank' })).statusCode).toBe(201);
      const rows = (await get(list)).json();
      expect(rows.map((r: { msp: string }) => r.msp)).toEqual(['Vertex Payments', 'Atlas ATM Services']);
      expect(Object.keys(rows[0]).sort()).toEqual(['bank_name', 'create_at', 'id', 'msp', 'update_at']);
    });

    it.each([
      ['a missing msp', { bank_name: 'Harbor Bank' }, /'msp' is required/],
      ['a blank bank_name', { msp: 'Atlas', bank_name: ' ' }, /'bank_name'/],
      ['an extra field', { msp: 'Atlas', bank_name: 'X', note: 'y' }, /unknown field 'note'/],
      ['an array for msp', { msp: ['a'], bank_name: 'X' }, /'msp'.*string/],
      ['a duplicate mapping', { msp: 'atlas atm services', bank_name: 'harbor bank' }, /already mapped/],
    ])('refuses %s with 400 and stores nothing', (_name, body, detail) => expectRefused(list, create, body, detail));

    it('edits and deletes a mapping, audited; refuses bad input whole, in plain words', async () => {
      const row = (await get(list)).json().find((r: { msp: string }) => r.msp === 'Vertex Payments');
      const put = (id: unknown, body: unknown) =>
        t.app.inject({ method: 'PUT', url: `/api/scrape/bank/msp/${id}/`, payload: body as object, headers: { authorization } });
      const changed = await put(row.id, { msp: 'Vertex Payments Ltd', bank_name: 'Harbor Bank' });
      expect(changed.statusCode).toBe(200);
      expect(changed.json()).toMatchObject({ id: row.id, msp: 'Vertex Payments Ltd', bank_name: 'Harbor Bank' });
      const before = (await get(list)).json();
      for (const [body, detail] of [
        [{ msp: '', bank_name: 'Harbor Bank' }, "body 'msp': cannot be empty."],
        [{ msp: '   ', bank_name: 'Harbor Bank' }, "body 'msp': cannot be blank."],
        [{ msp: 'atlas atm services', bank_name: 'HARBOR BANK' }, "Bank 'HARBOR BANK' is already mapped to MSP 'atlas atm services'."],
        [{ msp: 'X'.repeat(201), bank_name: 'Harbor Bank' }, "body 'msp': can be at most 200 characters."],
      ] as const) {
        const refused = await put(row.id, body);
        expect(refused.statusCode, JSON.stringify(body).slice(0, 60)).toBe(400);
        expect(refused.json().detail).toBe(detail);
      }
      expect((await put('abc', { msp: 'a', bank_name: 'b' })).statusCode).toBe(400);
      expect((await put(999999, { msp: 'a', bank_name: 'b' })).statusCode).toBe(404);
      expect((await get(list)).json()).toEqual(before);

      const remove = (id: unknown) => t.app.inject({ method: 'DELETE', url: `/api/scrape/bank/msp/${id}/`, headers: { authorization } });
      expect((await remove(row.id)).statusCode).toBe(204);
      expect((await remove(row.id)).statusCode).toBe(404);
      expect((await get(list)).json().map((r: { id: number }) => r.id)).not.toContain(row.id);
      const audit = (await t.database.db.select().from(auditLog)).filter((a) => a.entity === 'bank_msp' && a.entityId === String(row.id));
      expect(audit.map((a) => [a.action, a.detail])).toEqual([
        ['create', null],
        ['update', 'Harbor Bank -> Vertex Payments Ltd'],
        ['delete', 'Harbor Bank -> Vertex Payments Ltd'],
      ]);
    });
  });

  describe('a stored password changed or removed', () => {
    const list = '/api/scrape/store/password/list/';
    const put = (id: unknown, body: unknown) =>
      t.app.inject({ method: 'PUT', url: `/api/scrape/store/password/${id}/`, payload: body as object, headers: { authorization } });
    const reveal = async (id: number) => (await post(`/api/scrape/store/password/${id}/reveal/`, { reason: 'Checking the rotated password' })).json().bank_pass;

    it('takes a rotated password (sealed again), keeps it when none is given, and refuses bad input whole', async () => {
      const made = (await post('/api/scrape/store/password/create/', { bank_name: 'Rotating Bank', bank_pass: 'old-pass-1' })).json();
      const rotated = await put(made.id, { bank_name: 'Rotating Bank', bank_pass: 'new-pass-2' });
      expect(rotated.statusCode).toBe(200);
      expect(rotated.json()).toMatchObject({ id: made.id, bank_name: 'Rotating Bank', bank_pass: '••••••••' });
      expect(rotated.headers['cache-control']).toBe('no-store');
      expect(await reveal(made.id)).toBe('new-pass-2');
      const [sealed] = (await t.database.db.select().from(bankPasswords)).filter((r) => r.id === made.id);
      expect(sealed!.bankPassEncrypted.includes(Buffer.from('new-pass-2'))).toBe(false);
      // Renamed only: the password stays.
      expect((await put(made.id, { bank_name: 'Rotating Bank Ltd' })).json().bank_name).toBe('Rotating Bank Ltd');
      expect(await reveal(made.id)).toBe('new-pass-2');

      const before = (await get(list)).json();
      for (const [body, detail] of [
        [{ bank_name: '' }, "body 'bank_name': cannot be empty."],
        [{ bank_name: 'Rotating Bank Ltd', bank_pass: '' }, "body 'bank_pass': cannot be empty."],
        [{ bank_name: 'harbor bank' }, "A password for bank 'harbor bank' is already stored."],
        [{ bank_name: 'X', bank_pass: 'y', extra: 1 }, "body: unknown field 'extra'."],
      ] as const) {
        const refused = await put(made.id, body);
        expect(refused.statusCode, JSON.stringify(body)).toBe(400);
        expect(refused.json().detail).toBe(detail);
      }
      expect((await get(list)).json()).toEqual(before);
      expect(await reveal(made.id)).toBe('new-pass-2');
      expect((await put(999999, { bank_name: 'Nobody' })).statusCode).toBe(404);

      // The audit log says what changed, never the password.
      const audit = (await t.database.db.select().from(auditLog)).filter((a) => a.entity === 'bank_password' && a.entityId === String(made.id));
      expect(audit.filter((a) => a.action === 'update').map((a) => a.detail)).toEqual([
        'bank name Rotating Bank, password replaced',
        'bank name Rotating Bank Ltd',
      ]);
      expect(JSON.stringify(audit)).not.toContain('new-pass-2');

      const remove = (id: unknown) => t.app.inject({ method: 'DELETE', url: `/api/scrape/store/password/${id}/`, headers: { authorization } });
      expect((await remove(made.id)).statusCode).toBe(204);
      expect((await remove(made.id)).statusCode).toBe(404);
      expect((await get(list)).json().map((r: { id: number }) => r.id)).not.toContain(made.id);
    });
  });
});
