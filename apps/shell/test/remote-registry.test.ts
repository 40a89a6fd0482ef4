// @vitest-environment happy-dom
// The shell draws its side nav, routes and links from remotes.json alone: what each remote declares,
// in order, for the role, and a screen named by a remote (the stalled banner's 'mail flow').
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

vi.mock('@module-federation/enhanced/runtime', () => ({ registerRemotes: vi.fn(), registerPlugins: vi.fn(), loadRemote: vi.fn() }));
const { changedSection, navigationFor, ownerOf, registerRemotesFrom, registryFailure, screenPath } = await import('../src/features/remotes/remote-registry.ts');
const { sessionStore } = await import('@ejdesk/api-client');
const { registerPlugins, registerRemotes } = await import('@module-federation/enhanced/runtime');

const remotes = [
  {
    name: 'email',
    section: 'email',
    paths: ['dashboard', 'mail-flow'],
    nav: [
      { label: 'Mail Flow', path: '/mail-flow', order: 20 },
      { label: 'Dashboard', path: '/dashboard', order: 10 },
    ],
    screens: { 'mail flow': '/mail-flow' },
    manifest: 'http://cdn.example/email/2/mf-manifest.json',
    version: '2',
  },
  {
    name: 'admin',
    section: 'admin lists',
    role: 'admin',
    paths: ['users'],
    nav: [{ label: 'Users', path: '/users', order: 150 }],
    manifest: 'http://cdn.example/admin/1/mf-manifest.json',
    version: '1',
  },
  {
    name: 'ej',
    section: 'EJ',
    paths: ['ej-data'],
    nav: [{ label: 'EJ Data', path: '/ej-data', order: 30 }],
    manifest: 'http://cdn.example/ej/1/mf-manifest.json',
    version: '1',
    // Pinned by the registry at deploy.
    entry: 'http://cdn.example/ej/1/remoteEntry.js',
    integrity: { entry: 'sha384-entryhash', manifest: 'sha384-manifesthash' },
  },
];

beforeAll(async () => {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(JSON.stringify({ api_contract: 1, remotes }), { headers: { 'content-type': 'application/json' } })),
  );
  await registerRemotesFrom('/remotes.json');
});
afterAll(() => vi.unstubAllGlobals());

describe('the remote registry in the shell', () => {
  it('registers a pinned remote by its entry script, one from before pinning by its manifest', () => {
    expect(registryFailure()).toBeNull();
    expect(registerRemotes).toHaveBeenCalledWith([
      { name: 'email', entry: 'http://cdn.example/email/2/mf-manifest.json' },
      { name: 'admin', entry: 'http://cdn.example/admin/1/mf-manifest.json' },
      { name: 'ej', entry: 'http://cdn.example/ej/1/remoteEntry.js', type: 'global', entryGlobalName: 'ej' },
    ]);
  });

  it('loads a pinned entry script with its integrity, in CORS mode; any other script as the runtime would', () => {
    const [[plugins]] = vi.mocked(registerPlugins).mock.calls as unknown as [[{ createScript: (args: { url: string }) => HTMLScriptElement | undefined }[]]];
    const script = plugins[0]!.createScript({ url: 'http://cdn.example/ej/1/remoteEntry.js' })!;
    expect([script.src, script.integrity, script.crossOrigin]).toEqual(['http://cdn.example/ej/1/remoteEntry.js', 'sha384-entryhash', 'anonymous']);
    expect(plugins[0]!.createScript({ url: 'http://cdn.example/ej/2/remoteEntry.js' })).toBeUndefined();
  });

  it('draws the side nav from every remote, in declared order, leaving out what the role may not open', () => {
    expect(navigationFor('operator').map((e) => e.label)).toEqual(['Dashboard', 'Mail Flow', 'EJ Data']);
    expect(navigationFor('admin').map((e) => e.label)).toEqual(['Dashboard', 'Mail Flow', 'EJ Data', 'Users']);
  });

  it('routes a path to the remote that owns its first segment, and to none when no remote does', () => {
    expect(ownerOf('/mail-flow')?.name).toBe('email');
    expect(ownerOf('/users/7')?.name).toBe('admin');
    expect(ownerOf('/billing')).toBeUndefined();
  });

  it('finds a screen by the name a remote gives it', () => {
    expect(screenPath('mail flow')).toBe('/mail-flow');
    expect(screenPath('release notes')).toBeUndefined();
  });

  it('after a release event, names the section whose release for this operator changed, asking with their token', async () => {
    sessionStore.setState({ token: 'header.eyJ1c2VyX2lkIjo3fQ.sig' });
    const fetched = vi.fn(
      async (_url: string, _init?: RequestInit) =>
        new Response(JSON.stringify({ remotes: remotes.map((r) => (r.name === 'admin' ? { ...r, version: '2-canary' } : r)) }), {
          headers: { 'content-type': 'application/json' },
        }),
    );
    vi.stubGlobal('fetch', fetched);
    expect(await changedSection('admin')).toBe('admin lists');
    expect(new Headers(fetched.mock.calls[0]![1]!.headers).get('authorization')).toBe('JWT header.eyJ1c2VyX2lkIjo3fQ.sig');
    // Unchanged for this operator (a canary outside their share), or a remote this page never had.
    expect(await changedSection('ej')).toBeNull();
    expect(await changedSection('billing')).toBeNull();
  });
});
