// The remote registry: the shell's remotes.json read from one place, deploy and rollback
// switching it in one transaction with the audit log saying who, a version deployed once, raced
// deploys leaving one current release, and the writes closed to anyone without a deploy token: a
// team's token deploys its own remote only, and admins create, list and revoke tokens.
import { apiContractVersion } from '@ejdesk/contract';
import { auditLog, createUser, deployTokens, inCanaryShare, recordConfiguredDeployToken } from '@ejdesk/db';
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, backends, createTestApp, login, operator, type TestApp } from './helpers.ts';

const token = 'deploy-token-for-tests-0123456789';
const descriptor = (extra: Record<string, unknown> = {}) => ({
  name: 'admin',
  section: 'admin lists',
  role: 'admin',
  paths: ['bank-msp-list'],
  nav: [{ label: 'Bank MSP List', path: '/bank-msp-list', order: 80 }],
  screens: { 'bank msp list': '/bank-msp-list' },
  contract: 1,
  ...extra,
});
const release = (version: string, extra: Record<string, unknown> = {}) => ({
  version,
  manifest: `http://localhost:3004/${version}/mf-manifest.json`,
  descriptor: descriptor(extra),
  by: 'release-bot',
});

describe.each(backends)('the remote registry on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(backend, { deployToken: token, canaryRollbackFailures: 2 });
  });
  afterAll(() => t.close());

  const write = (url: string, payload: unknown, auth = `Bearer ${token}`) =>
    t.app.inject({ method: 'POST', url, headers: { authorization: auth }, payload: payload as object });
  const registry = async () =>
    (await t.app.inject({ method: 'GET', url: '/api/registry/' })).json().remotes as { name: string; version: string; nav: unknown[]; manifest: string }[];
  const status = async () =>
    (await t.app.inject({ method: 'GET', url: '/api/registry/status/', headers: { authorization: `JWT ${(await login(t.app, admin)).access}` } })).json() as {
      name: string;
      current: { version: string; load_failures: number };
      canary: { version: string; percent: number; load_failures: number } | null;
    }[];

  it('starts empty, and a deploy makes the release current with what its build declared', async () => {
    expect(await registry()).toEqual([]);
    const deployed = await write('/api/registry/admin/releases/', release('1.0.0'));
    expect(deployed.statusCode).toBe(201);
    expect(deployed.json()).toEqual({ name: 'admin', from: null, to: '1.0.0' });
    const response = await t.app.inject({ method: 'GET', url: '/api/registry/' });
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.json().api_contract).toBe(apiContractVersion);
    expect(response.json().remotes).toEqual([{ ...descriptor(), version: '1.0.0', manifest: 'http://localhost:3004/1.0.0/mf-manifest.json' }]);
  });

  it('a second deploy switches, a rollback goes back one release, and the audit log says who', async () => {
    const extra = { nav: [...descriptor().nav, { label: 'Release Notes', path: '/release-notes', order: 95 }], paths: ['bank-msp-list', 'release-notes'] };
    expect((await write('/api/registry/admin/releases/', release('1.1.0', extra))).json()).toEqual({ name: 'admin', from: '1.0.0', to: '1.1.0' });
    expect((await registry())[0]).toMatchObject({ version: '1.1.0', nav: extra.nav });

    const back = await write('/api/registry/admin/rollback/', { by: 'ana' });
    expect(back.statusCode).toBe(200);
    expect(back.json()).toEqual({ name: 'admin', from: '1.1.0', to: '1.0.0' });
    expect((await registry())[0]).toMatchObject({ version: '1.0.0', nav: descriptor().nav });

    const first = await write('/api/registry/admin/rollback/', { by: 'ana' });
    expect(first.statusCode).toBe(409);
    expect(first.json().detail).toMatch(/first release: there is nothing to roll back to/);
    expect((await registry())[0]!.version).toBe('1.0.0');

    const history = await t.app.inject({ method: 'GET', url: '/api/registry/releases/?name=admin', headers: { authorization: `Bearer ${token}` } });
    expect(history.json().map((r: { version: string; current: boolean; deployed_by: string }) => [r.version, r.current, r.deployed_by])).toEqual([
      ['1.1.0', false, 'release-bot'],
      ['1.0.0', true, 'release-bot'],
    ]);
    const audits = (await t.database.db.select().from(auditLog)).filter((r) => r.entity === 'remote');
    expect(audits.map((r) => [r.action, r.entityId, r.detail])).toEqual([
      ['deploy', 'admin', 'none -> 1.0.0 by release-bot with the token REMOTE_DEPLOY_TOKEN'],
      ['deploy', 'admin', '1.0.0 -> 1.1.0 by release-bot with the token REMOTE_DEPLOY_TOKEN'],
      ['rollback', 'admin', '1.1.0 -> 1.0.0 by ana with the token REMOTE_DEPLOY_TOKEN'],
    ]);
  });

  it('a version is deployed once: the same version again is refused and changes nothing', async () => {
    const again = await write('/api/registry/admin/releases/', release('1.1.0'));
    expect(again.statusCode).toBe(409);
    expect(again.json().detail).toBe('admin 1.1.0 is already deployed: give the new build a new version');
    expect((await registry())[0]!.version).toBe('1.0.0');
  });

  it('parallel deploys of one remote leave exactly one current release, and each switch is audited', async () => {
    const versions = ['2.0.0', '2.0.1', '2.0.2', '2.0.3', '2.0.4', '2.0.5'];
    const answers = await Promise.all(versions.map((v) => write('/api/registry/admin/releases/', release(v))));
    expect(answers.map((a) => a.statusCode)).toEqual(versions.map(() => 201));
    // Each switch saw the one before it: the "from" versions chain with no gap and no repeat.
    const froms = answers.map((a) => a.json().from as string);
    expect(new Set(froms).size).toBe(versions.length);
    const current = await registry();
    expect(current).toHaveLength(1);
    expect(versions).toContain(current[0]!.version);
    expect(froms).not.toContain(current[0]!.version);
  });

  it('writes need the deployers\u2019 token; bad input is a 400 naming the field and changes nothing', async () => {
    const before = await registry();
    expect((await write('/api/registry/admin/releases/', release('9.0.0'), '')).statusCode).toBe(401);
    expect((await write('/api/registry/admin/releases/', release('9.0.0'), `Bearer ${token}x`)).statusCode).toBe(401);
    expect((await write('/api/registry/admin/rollback/', { by: 'x' }, 'JWT abc')).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/registry/releases/' })).statusCode).toBe(401);
    const bad: [string, string, unknown, RegExp][] = [
      ['a name that differs from the descriptor', '/api/registry/email/releases/', release('9.0.0'), /descriptor.name is 'admin', not 'email'/],
      ['a bad name', '/api/registry/Admin%20x/releases/', release('9.0.0'), /name/],
      ['a version with a slash', '/api/registry/admin/releases/', release('../9'), /version/],
      ['a manifest that is not a URL', '/api/registry/admin/releases/', { ...release('9.0.0'), manifest: 'javascript:alert(1)' }, /manifest/],
      [
        'a nav path outside the app',
        '/api/registry/admin/releases/',
        release('9.0.0', { nav: [{ label: 'x', path: 'https://evil.example', order: 1 }] }),
        /path/,
      ],
      ['no body', '/api/registry/admin/releases/', undefined, /body/],
      ['an extra field', '/api/registry/admin/releases/', { ...release('9.0.0'), current: true }, /unknown field 'current'/],
      ['a rollback with no one named', '/api/registry/admin/rollback/', {}, /'by' is required/],
    ];
    for (const [what, url, payload, detail] of bad) {
      const response = await write(url, payload);
      expect(response.statusCode, what).toBe(400);
      expect(response.json().detail, what).toMatch(detail);
    }
    expect((await write('/api/registry/files/rollback/', { by: 'x' })).statusCode).toBe(409);
    expect(await registry()).toEqual(before);
  });

  describe('rollback and withdraw', () => {
    const ejRelease = (version: string, canary?: number) => ({
      ...release(version),
      descriptor: descriptor({ name: 'ej', role: undefined, section: 'EJ data', paths: ['ej-trust'], nav: [], screens: {} }),
      ...(canary ? { canary } : {}),
    });
    const deploy = (version: string, canary?: number) => write('/api/registry/ej/releases/', ejRelease(version, canary));
    const rollback = () => write('/api/registry/ej/rollback/', { by: 'ana' });
    const withdraw = (version: string, auth?: string) => write('/api/registry/ej/withdraw/', { version, by: 'ana' }, auth);
    const ejVersion = async () => (await registry()).find((r) => r.name === 'ej')?.version;

    it('a release rolled back from is never returned to: v1, v2 rolled back to v1, v3 rolled back goes to v1', async () => {
      expect((await deploy('1.0.0')).statusCode).toBe(201);
      expect((await deploy('2.0.0')).statusCode).toBe(201);
      expect((await rollback()).json()).toEqual({ name: 'ej', from: '2.0.0', to: '1.0.0' });
      expect((await deploy('3.0.0')).statusCode).toBe(201);
      const back = await rollback();
      expect(back.statusCode).toBe(200);
      expect(back.json()).toEqual({ name: 'ej', from: '3.0.0', to: '1.0.0' });
      expect(await ejVersion()).toBe('1.0.0');
      // A canary ended by a rollback is rolled back from too.
      expect((await deploy('4.0.0', 50)).statusCode).toBe(201);
      expect((await rollback()).json()).toEqual({ name: 'ej', from: '4.0.0', to: '1.0.0' });
      expect((await deploy('5.0.0')).statusCode).toBe(201);
      expect((await rollback()).json()).toEqual({ name: 'ej', from: '5.0.0', to: '1.0.0' });
      const history = await t.app.inject({ method: 'GET', url: '/api/registry/releases/?name=ej', headers: { authorization: `Bearer ${token}` } });
      expect(history.json().map((r: { version: string; current: boolean; rolled_back: boolean }) => [r.version, r.current, r.rolled_back])).toEqual([
        ['5.0.0', false, true],
        ['4.0.0', false, true],
        ['3.0.0', false, true],
        ['2.0.0', false, true],
        ['1.0.0', true, false],
      ]);
    });

    it('a withdrawn release is never served nor rolled back to; withdrawing the current one serves the last good one before it', async () => {
      expect((await deploy('6.0.0')).statusCode).toBe(201);
      // Withdrawn while not current: a later rollback passes over it.
      expect((await withdraw('1.0.0')).json()).toEqual({ name: 'ej', version: '1.0.0', current: '6.0.0' });
      const none = await rollback();
      expect(none.statusCode).toBe(409);
      expect(none.json().detail).toMatch(/no earlier release to roll back to: each was withdrawn, rolled back from/);
      expect(await ejVersion()).toBe('6.0.0');

      // The current one, with a good one before it: that one is current again.
      expect((await deploy('7.0.0')).statusCode).toBe(201);
      expect((await withdraw('7.0.0')).json()).toEqual({ name: 'ej', version: '7.0.0', current: '6.0.0' });
      expect(await ejVersion()).toBe('6.0.0');

      // A canary: it ends, and everyone has the current release.
      expect((await deploy('8.0.0', 99)).statusCode).toBe(201);
      expect((await withdraw('8.0.0')).json()).toEqual({ name: 'ej', version: '8.0.0', current: '6.0.0' });
      expect((await status()).find((s) => s.name === 'ej')!.canary).toBeNull();

      // The current one with nothing good before it: the remote is served no release until its next deploy.
      expect((await withdraw('6.0.0')).json()).toEqual({ name: 'ej', version: '6.0.0', current: null });
      expect(await ejVersion()).toBeUndefined();
      expect((await deploy('9.0.0')).json()).toEqual({ name: 'ej', from: null, to: '9.0.0' });
      expect((await rollback()).statusCode).toBe(409);
      expect(await ejVersion()).toBe('9.0.0');

      const again = await withdraw('6.0.0');
      expect([again.statusCode, again.json().detail]).toEqual([409, 'ej 6.0.0 is withdrawn already']);
      const unknown = await withdraw('0.0.9');
      expect([unknown.statusCode, unknown.json().detail]).toEqual([404, 'ej has no release 0.0.9']);
      for (const [payload, detail] of [
        [{ by: 'ana' }, /version/],
        [{ version: '../1', by: 'ana' }, /version/],
        [{ version: '9.0.0' }, /by/],
      ] as const) {
        const bad = await write('/api/registry/ej/withdraw/', payload);
        expect(bad.statusCode).toBe(400);
        expect(bad.json().detail).toMatch(detail);
      }
      expect((await withdraw('9.0.0', '')).statusCode).toBe(401);

      const audits = (await t.database.db.select().from(auditLog)).filter((r) => r.entity === 'remote' && r.entityId === 'ej' && r.action === 'withdraw');
      expect(audits.map((r) => r.detail)).toEqual([
        '1.0.0 withdrawn by ana with the token REMOTE_DEPLOY_TOKEN',
        '7.0.0 withdrawn: 7.0.0 -> 6.0.0 by ana with the token REMOTE_DEPLOY_TOKEN',
        '8.0.0 withdrawn: the canary ended, 6.0.0 for every operator, by ana with the token REMOTE_DEPLOY_TOKEN',
        '6.0.0 withdrawn: no release of ej is served now by ana with the token REMOTE_DEPLOY_TOKEN',
      ]);
    });
  });

  describe('canary releases', () => {
    const canaryRelease = (version: string, canary: number) => ({
      ...release(version),
      descriptor: descriptor({ name: 'files', paths: ['files'], nav: [] }),
      canary,
    });
    const filesRelease = (version: string) => ({ ...release(version), descriptor: descriptor({ name: 'files', paths: ['files'], nav: [] }) });
    /** The files remote's version in the registry as an operator's shell reads it. */
    const versionFor = async (userId: number) => {
      const answer = await t.app.inject({
        method: 'GET',
        url: '/api/registry/',
        headers: { authorization: `JWT ${t.app.ctx.tokens.issue(userId, 'access')}` },
      });
      return (answer.json().remotes as { name: string; version: string }[]).find((r) => r.name === 'files')!.version;
    };

    it('a first release cannot be a canary; a canary reaches its share of 1,000 operators, each always the same', async () => {
      const first = await write('/api/registry/files/releases/', canaryRelease('1.0.0', 10));
      expect(first.statusCode).toBe(409);
      expect(first.json().detail).toMatch(/first one goes to every operator/);
      expect((await write('/api/registry/files/releases/', filesRelease('1.0.0'))).statusCode).toBe(201);
      const deployed = await write('/api/registry/files/releases/', canaryRelease('1.1.0', 20));
      expect(deployed.statusCode).toBe(201);
      expect(deployed.json()).toEqual({ name: 'files', from: '1.0.0', to: '1.1.0' });

      const operators = Array.from({ length: 1000 }, (_, i) => 1000 + i);
      const first1000 = await Promise.all(operators.map(versionFor));
      const share = first1000.filter((v) => v === '1.1.0').length / 10;
      expect(Math.abs(share - 20)).toBeLessThanOrEqual(5);
      expect(first1000.filter((v) => v !== '1.1.0' && v !== '1.0.0')).toEqual([]);
      // Sticky: each operator gets the same release again.
      expect(await Promise.all(operators.map(versionFor))).toEqual(first1000);
      // Without an operator (the shell's server, a login page): the current release.
      expect((await registry()).find((r) => r.name === 'files')!.version).toBe('1.0.0');
      expect((await status()).find((s) => s.name === 'files')).toMatchObject({ current: { version: '1.0.0' }, canary: { version: '1.1.0', percent: 20 } });

      // One canary at a time: another deploy waits for its promotion or rollback.
      const during = await write('/api/registry/files/releases/', filesRelease('1.2.0'));
      expect(during.statusCode).toBe(409);
      expect(during.json().detail).toBe('files 1.1.0 is a canary now: promote it or roll it back first');
    });

    it('promote makes the canary every operator\u2019s; a rollback during a canary ends it', async () => {
      const promoted = await write('/api/registry/files/promote/', { by: 'ana' });
      expect(promoted.json()).toEqual({ name: 'files', from: '1.0.0', to: '1.1.0' });
      expect(new Set(await Promise.all([1000, 1001, 1002, 1003, 1004].map(versionFor)))).toEqual(new Set(['1.1.0']));
      expect((await write('/api/registry/files/promote/', { by: 'ana' })).statusCode).toBe(409);

      expect((await write('/api/registry/files/releases/', canaryRelease('1.2.0', 50))).statusCode).toBe(201);
      const ended = await write('/api/registry/files/rollback/', { by: 'ana' });
      expect(ended.json()).toEqual({ name: 'files', from: '1.2.0', to: '1.1.0' });
      expect(new Set(await Promise.all(Array.from({ length: 40 }, (_, i) => versionFor(2000 + i))))).toEqual(new Set(['1.1.0']));
      const audits = (await t.database.db.select().from(auditLog))
        .filter((r) => r.entity === 'remote' && r.entityId === 'files')
        .map((r) => [r.action, r.detail]);
      expect(audits).toEqual([
        ['deploy', 'none -> 1.0.0 by release-bot with the token REMOTE_DEPLOY_TOKEN'],
        ['deploy', '1.0.0 -> 1.1.0 for 20% of operators (canary) by release-bot with the token REMOTE_DEPLOY_TOKEN'],
        ['promote', '1.0.0 -> 1.1.0 for every operator (was 20%) by ana with the token REMOTE_DEPLOY_TOKEN'],
        ['deploy', '1.1.0 -> 1.2.0 for 50% of operators (canary) by release-bot with the token REMOTE_DEPLOY_TOKEN'],
        ['rollback', 'canary 1.2.0 ended, 1.1.0 for every operator, by ana with the token REMOTE_DEPLOY_TOKEN'],
      ]);
    });

    it('a canary that operators cannot load rolls back by itself past the threshold, counting each operator once', async () => {
      expect((await write('/api/registry/files/releases/', canaryRelease('1.3.0', 99))).statusCode).toBe(201);
      const report = (auth: string, payload: unknown) =>
        t.app.inject({ method: 'POST', url: '/api/registry/files/failures/', headers: { authorization: auth }, payload: payload as object });
      const operatorAuth = `JWT ${(await login(t.app, operator)).access}`;
      const adminAuth = `JWT ${(await login(t.app, admin)).access}`;
      const once = await report(operatorAuth, { version: '1.3.0' });
      expect(once.statusCode).toBe(202);
      expect(once.json()).toEqual({ load_failures: 1, rolled_back: false, counted: true });
      // The same operator again (a reload): still one.
      expect((await report(operatorAuth, { version: '1.3.0' })).json()).toEqual({ load_failures: 1, rolled_back: false, counted: true });
      expect((await status()).find((s) => s.name === 'files')!.canary).toMatchObject({ version: '1.3.0', load_failures: 1 });
      expect((await report(adminAuth, { version: '1.3.0' })).json()).toEqual({ load_failures: 2, rolled_back: true, counted: true });
      expect((await status()).find((s) => s.name === 'files')!.canary).toBeNull();
      expect(new Set(await Promise.all(Array.from({ length: 20 }, (_, i) => versionFor(3000 + i))))).toEqual(new Set(['1.1.0']));
      const last = (await t.database.db.select().from(auditLog)).filter((r) => r.entity === 'remote' && r.entityId === 'files').at(-1)!;
      expect([last.action, last.userId, last.detail]).toEqual([
        'rollback',
        null,
        'canary 1.3.0 rolled back by itself: 2 operators could not load it (threshold 2); 1.1.0 for every operator',
      ]);
      // A failure of the current release is counted, and rolls nothing back.
      expect((await report(operatorAuth, { version: '1.1.0' })).json()).toEqual({ load_failures: 1, rolled_back: false, counted: true });
      expect((await report(adminAuth, { version: '1.1.0' })).json()).toEqual({ load_failures: 2, rolled_back: false, counted: true });
      // Bad reports.
      expect((await report(operatorAuth, { version: '9.9.9' })).statusCode).toBe(404);
      expect((await report(operatorAuth, { version: '../x' })).statusCode).toBe(400);
      expect((await report(operatorAuth, {})).statusCode).toBe(400);
      expect((await report('', { version: '1.1.0' })).statusCode).toBe(401);
      expect((await report(`Bearer ${token}`, { version: '1.1.0' })).statusCode).toBe(401);
      const badPercent = await write('/api/registry/files/releases/', canaryRelease('1.4.0', 100));
      expect(badPercent.statusCode).toBe(400);
      expect(badPercent.json().detail).toMatch(/canary/);
    });

    it('reports from operators outside the canary\u2019s share are answered and not counted: they never roll it back', async () => {
      expect((await write('/api/registry/files/releases/', canaryRelease('1.5.0', 10))).statusCode).toBe(201);
      const report = (userId: number, version: string) =>
        t.app.inject({
          method: 'POST',
          url: '/api/registry/files/failures/',
          headers: { authorization: `JWT ${t.app.ctx.tokens.issue(userId, 'access')}` },
          payload: { version },
        });
      const outside: number[] = [];
      const inside: number[] = [];
      for (let i = 0; outside.length < 3 || inside.length < 1; i++) {
        const id = (await createUser(t.database.db, `share-${i}@example.com`, 'not-a-hash'))!.id;
        (inCanaryShare('files', id, 10) ? inside : outside).push(id);
      }
      // Three operators who are served 1.1.0 say the canary fails (the threshold is 2): not counted.
      for (const id of outside.slice(0, 3)) {
        const answer = await report(id, '1.5.0');
        expect(answer.statusCode).toBe(202);
        expect(answer.json()).toEqual({ load_failures: 0, rolled_back: false, counted: false });
      }
      expect((await status()).find((s) => s.name === 'files')!.canary).toMatchObject({ version: '1.5.0', load_failures: 0 });
      // Nor is one in the share about the current release, which it does not load.
      expect((await report(inside[0]!, '1.1.0')).json()).toMatchObject({ counted: false });
      // One in the share is counted.
      expect((await report(inside[0]!, '1.5.0')).json()).toEqual({ load_failures: 1, rolled_back: false, counted: true });
      expect((await write('/api/registry/files/rollback/', { by: 'ana' })).statusCode).toBe(200);
    });
  });

  describe('deploy tokens', () => {
    let adminAuth: string;
    let operatorAuth: string;
    beforeAll(async () => {
      adminAuth = `JWT ${(await login(t.app, admin)).access}`;
      operatorAuth = `JWT ${(await login(t.app, operator)).access}`;
    });
    const tokens = (auth = adminAuth) => t.app.inject({ method: 'GET', url: '/api/registry/tokens/', headers: { authorization: auth } });
    const create = (payload: unknown, auth = adminAuth) =>
      t.app.inject({ method: 'POST', url: '/api/registry/tokens/', headers: { authorization: auth }, payload: payload as object });
    const revoke = (id: number | string, auth = adminAuth) =>
      t.app.inject({ method: 'DELETE', url: `/api/registry/tokens/${id}/`, headers: { authorization: auth } });
    const tokenAudit = async () =>
      (await t.database.db.select().from(auditLog)).filter((r) => r.entity === 'deploy_token').map((r) => [r.action, r.entityId, r.detail]);

    it('a team token is shown once, deploys and rolls back its own remote, and is refused on another', async () => {
      const made = await create({ remote: 'email', name: 'email team' });
      expect(made.statusCode).toBe(201);
      const { token, ...listed } = made.json();
      expect(token).toMatch(/^ejd_[A-Za-z0-9_-]{43}$/);
      expect(listed).toMatchObject({ name: 'email team', remote: 'email', configured: false, created_by: admin.email });

      // Listed with the configured all-remotes one, never in clear, nor its hash.
      const list = await tokens();
      expect(list.statusCode).toBe(200);
      expect(list.json().map((r: { name: string; remote: string | null }) => [r.name, r.remote])).toEqual([
        ['REMOTE_DEPLOY_TOKEN', null],
        ['email team', 'email'],
      ]);
      expect(list.body).not.toContain(token);
      expect(list.body).not.toContain(token.slice(4, 20));
      const [stored] = await t.database.db
        .select()
        .from(deployTokens)
        .where(sql`${deployTokens.name} = 'email team'`);
      expect(stored!.tokenHash.toString('hex')).toBe(createHash('sha256').update(token).digest('hex'));

      const emailRelease = { ...release('1.0.0'), descriptor: { ...descriptor(), name: 'email', role: undefined, paths: ['email'], nav: [] } };
      const deployed = await write('/api/registry/email/releases/', emailRelease, `Bearer ${token}`);
      expect(deployed.statusCode).toBe(201);
      const before = await registry();
      const elsewhere = await write('/api/registry/admin/releases/', release('7.0.0'), `Bearer ${token}`);
      expect(elsewhere.statusCode).toBe(403);
      expect(elsewhere.json().detail).toBe("The deploy token 'email team' deploys email only, not admin.");
      expect((await write('/api/registry/admin/rollback/', { by: 'x' }, `Bearer ${token}`)).statusCode).toBe(403);
      expect((await t.app.inject({ method: 'GET', url: '/api/registry/releases/?name=admin', headers: { authorization: `Bearer ${token}` } })).statusCode).toBe(
        403,
      );
      const own = await t.app.inject({ method: 'GET', url: '/api/registry/releases/', headers: { authorization: `Bearer ${token}` } });
      expect(own.json().map((r: { name: string }) => r.name)).toEqual(['email']);
      expect(await registry()).toEqual(before);

      const audits = (await t.database.db.select().from(auditLog)).filter((r) => r.entity === 'remote' && r.entityId === 'email');
      expect(audits.map((r) => r.detail)).toEqual(['none -> 1.0.0 by release-bot with the token email team']);
    });

    it('revoking a token refuses it at once; revoking the configured one ends its deploys too', async () => {
      const { id, token } = (await create({ remote: 'files', name: 'files team' })).json();
      expect((await revoke(id)).statusCode).toBe(204);
      const refused = await write('/api/registry/files/rollback/', { by: 'x' }, `Bearer ${token}`);
      expect(refused.statusCode).toBe(401);
      expect((await revoke(id)).statusCode).toBe(404);
      expect((await tokens()).json().map((r: { name: string }) => r.name)).not.toContain('files team');

      const configured = (await tokens()).json().find((r: { configured: boolean }) => r.configured);
      expect((await revoke(configured.id)).statusCode).toBe(204);
      expect((await write('/api/registry/admin/rollback/', { by: 'x' })).statusCode).toBe(401);
      expect(await tokenAudit()).toEqual(
        expect.arrayContaining([
          ['create', 'files team', 'remote files'],
          ['revoke', 'files team', 'remote files'],
          ['revoke', 'REMOTE_DEPLOY_TOKEN', 'remote every remote'],
        ]),
      );
    });

    it('a configured token changed in the configuration is retired; the new one is recorded', async () => {
      await recordConfiguredDeployToken(t.database.db, 'rotated-token-0123456789');
      expect((await write('/api/registry/admin/rollback/', { by: 'x' }, 'Bearer rotated-token-0123456789')).statusCode).not.toBe(401);
      await recordConfiguredDeployToken(t.database.db, 'rotated-again-0123456789');
      expect((await write('/api/registry/admin/rollback/', { by: 'x' }, 'Bearer rotated-token-0123456789')).statusCode).toBe(401);
      expect((await tokens()).json().filter((r: { configured: boolean }) => r.configured)).toHaveLength(1);
      expect(await tokenAudit()).toContainEqual(['revoke', 'REMOTE_DEPLOY_TOKEN', 'no longer the configured REMOTE_DEPLOY_TOKEN']);
    });

    it('only admins list, create and revoke tokens; bad input is a 400 and changes nothing', async () => {
      const before = (await tokens()).json();
      expect((await tokens(operatorAuth)).statusCode).toBe(403);
      expect((await create({ remote: 'email', name: 'mine' }, operatorAuth)).statusCode).toBe(403);
      expect((await revoke(before[0].id, operatorAuth)).statusCode).toBe(403);
      expect((await tokens('')).statusCode).toBe(401);
      // A deploy token is not a sign-in.
      expect((await tokens(`Bearer ${(await create({ remote: 'ej', name: 'ej team' })).json().token}`)).statusCode).toBe(401);
      const afterEj = (await tokens()).json();
      const bad: [string, unknown, RegExp][] = [
        ['no remote', { name: 'x' }, /remote/],
        ['a bad remote', { remote: 'Admin x', name: 'x' }, /remote/],
        ['an empty name', { remote: 'email', name: '   ' }, /name/],
        ['a name with a newline', { remote: 'email', name: 'a\nb' }, /name/],
        ['a long name', { remote: 'email', name: 'x'.repeat(61) }, /name/],
        ["the configured token's name", { remote: 'email', name: 'REMOTE_DEPLOY_TOKEN' }, /configured/],
        ['an extra field', { remote: 'email', name: 'x', token: 'chosen' }, /unknown field 'token'/],
      ];
      for (const [what, payload, detail] of bad) {
        const response = await create(payload);
        expect(response.statusCode, what).toBe(400);
        expect(response.json().detail, what).toMatch(detail);
      }
      const twice = await create({ remote: 'files', name: 'ej team' });
      expect(twice.statusCode).toBe(409);
      expect((await revoke('abc')).statusCode).toBe(400);
      expect((await revoke(999999)).statusCode).toBe(404);
      expect((await tokens()).json()).toEqual(afterEj);
    });

    it('holds the limit under parallel creates', async () => {
      const live = (await tokens()).json().length;
      const answers = await Promise.all(Array.from({ length: 110 - live }, (_, i) => create({ remote: 'email', name: `parallel ${i}` })));
      const codes = answers.map((a) => a.statusCode);
      expect(codes.filter((c) => c === 201)).toHaveLength(100 - live);
      expect(codes.filter((c) => c === 400)).toHaveLength(10);
      expect((await tokens()).json()).toHaveLength(100);
    });
  });

  it('without a token configured, the registry is read-only', async () => {
    const closed = await createTestApp(backend);
    try {
      const response = await closed.app.inject({
        method: 'POST',
        url: '/api/registry/admin/rollback/',
        headers: { authorization: 'Bearer x' },
        payload: { by: 'x' },
      });
      expect(response.statusCode).toBe(403);
      expect(response.json().detail).toMatch(/REMOTE_DEPLOY_TOKEN/);
      expect((await closed.app.inject({ method: 'GET', url: '/api/registry/' })).statusCode).toBe(200);
    } finally {
      await closed.close();
    }
  });
});
