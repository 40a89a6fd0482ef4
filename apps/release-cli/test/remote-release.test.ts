// The checks before a deploy: each refusal names what is wrong, and a build that fits passes.
import { describe, expect, it } from 'vitest';
import type { RegistryEntry } from '@ejdesk/contract';
import { releaseProblems, type FederationManifest, type ReleaseCandidate } from '../src/remote-release.ts';

const shared = (name: string, version: string, requiredVersion: string) => ({ name, version, requiredVersion, singleton: true });
const shell: FederationManifest = {
  name: 'shell',
  shared: [shared('react', '19.3.1', '^19.0.0'), shared('react-router-dom', '7.18.5', '^7.0.0'), shared('@ejdesk/ui', '0.1.0', '^0.1.0')],
};
const email: RegistryEntry = { name: 'email', section: 'email', paths: ['dashboard'], nav: [], manifest: 'http://x/1/mf-manifest.json', version: '1' };
const fits = (): ReleaseCandidate => ({
  name: 'admin',
  manifest: {
    name: 'admin',
    exposes: [{ path: './routes' }],
    shared: [
      shared('react', '19.2.0', '^19.0.0'),
      shared('react-router-dom', '7.1.0', '^7.0.0'),
      shared('@ejdesk/ui', '0.1.3', '^0.1.0'),
      shared('@ejdesk/export', '0.1.0', '^0.1.0'),
    ],
  },
  descriptor: { name: 'admin', section: 'admin lists', paths: ['users'], nav: [], contract: 2 },
  shell,
  apiContract: 2,
  others: [email],
});

describe('releaseProblems', () => {
  it('passes a build that fits the shell, the API and the other remotes', () => {
    expect(releaseProblems(fits())).toEqual([]);
  });

  it.each([
    [
      'react 18',
      (c: ReleaseCandidate) => (c.manifest.shared![0] = shared('react', '18.3.1', '^18.0.0')),
      /shares react 18.3.1 \(needs \^18.0.0\), and the shell provides 19.3.1/,
    ],
    [
      'react-router 6',
      (c: ReleaseCandidate) => (c.manifest.shared![1] = shared('react-router-dom', '6.30.0', '^6.0.0')),
      /react-router-dom 6.30.0 .* the shell provides 7.18.5/,
    ],
    ['a range past the shell', (c: ReleaseCandidate) => (c.manifest.shared![0] = shared('react', '19.3.1', '^20.0.0')), /needs \^20.0.0/],
    ['a 0.x minor', (c: ReleaseCandidate) => (c.manifest.shared![2] = shared('@ejdesk/ui', '0.2.0', '^0.2.0')), /@ejdesk\/ui 0.2.0/],
    ['another name', (c: ReleaseCandidate) => (c.manifest.name = 'files'), /its manifest names the remote 'files', not 'admin'/],
    ['no ./routes', (c: ReleaseCandidate) => (c.manifest.exposes = [{ path: './App' }]), /does not expose \.\/routes/],
    ['another contract', (c: ReleaseCandidate) => (c.descriptor.contract = 1), /built against API contract 1, and this API serves contract 2/],
    ['no contract', (c: ReleaseCandidate) => delete c.descriptor.contract, /API contract \(none\)/],
    ['a path of another remote', (c: ReleaseCandidate) => (c.descriptor.paths = ['users', 'dashboard']), /the path \/dashboard belongs to the remote 'email'/],
    ["the shell's own path", (c: ReleaseCandidate) => (c.descriptor.paths = ['users', 'login']), /\/login is the shell's own/],
  ])('refuses %s, saying why', (_what, spoil, reason) => {
    const candidate = structuredClone(fits());
    spoil(candidate);
    const problems = releaseProblems(candidate);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(reason);
  });

  it('leaves alone what the shell does not provide (shared between remotes only) and what is not a singleton', () => {
    const candidate = fits();
    candidate.manifest.shared!.push({ name: 'react-dom/client', version: '18.0.0', requiredVersion: '^18.0.0', singleton: false });
    expect(releaseProblems(candidate)).toEqual([]);
  });
});
