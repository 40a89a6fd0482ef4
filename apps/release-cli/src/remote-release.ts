// The checks a remote's build must pass before the registry points the shell at it: its manifest
// names it and exposes ./routes, the singletons it shares are the majors the shell provides (two
// copies of React, or of the router, on one page break every screen), it was built against the API
// contract this API serves, and the paths it claims are not another remote's nor the shell's. The
// API checks all but the singletons again, itself: these give the earlier, friendlier refusal.
import { shellPaths, type RegistryEntry, type RemoteDescriptor } from '@ejdesk/contract';

/** The parts of a Module Federation 2 manifest (mf-manifest.json) the checks read. */
export interface FederationManifest {
  name: string;
  exposes?: { path: string }[];
  shared?: { name: string; version: string; requiredVersion?: string; singleton?: boolean }[];
}

/** The part of a version a caret range keeps fixed: the major, or the minor under 1.0 (^0.1 is <0.2). */
const caretLine = (version: string) => {
  const [major = '', minor = ''] = version.replace(/^[\^~>=<\s]+/, '').split('.');
  return major === '0' ? `0.${minor}` : major;
};

export interface ReleaseCandidate {
  name: string;
  manifest: FederationManifest;
  descriptor: Partial<RemoteDescriptor> & { version?: string };
  /** The running shell's own manifest: the singletons it provides. */
  shell: FederationManifest;
  apiContract: number;
  /** The other remotes as the registry has them now. */
  others: RegistryEntry[];
}

/** Why the build may not be deployed; empty when it may. */
export function releaseProblems(candidate: ReleaseCandidate): string[] {
  const { name, manifest, descriptor, shell } = candidate;
  const problems: string[] = [];
  if (manifest.name !== name) problems.push(`its manifest names the remote '${manifest.name}', not '${name}'`);
  if (!manifest.exposes?.some((e) => e.path === './routes')) problems.push(`it does not expose ./routes (the module the shell loads)`);
  if (descriptor.name !== name) problems.push(`its ejdesk-remote.json names '${String(descriptor.name)}', not '${name}'`);
  if (!Array.isArray(descriptor.paths) || !Array.isArray(descriptor.nav)) problems.push('its ejdesk-remote.json lists no paths or nav');
  if (descriptor.contract !== candidate.apiContract) {
    problems.push(`it was built against API contract ${descriptor.contract ?? '(none)'}, and this API serves contract ${candidate.apiContract}`);
  }
  const provided = new Map((shell.shared ?? []).map((s) => [s.name, s.version]));
  for (const shared of manifest.shared ?? []) {
    const shellVersion = provided.get(shared.name);
    if (!shared.singleton || !shellVersion) continue;
    const wanted = [shared.version, shared.requiredVersion].filter((v): v is string => !!v);
    if (wanted.some((v) => caretLine(v) !== caretLine(shellVersion))) {
      problems.push(
        `it shares ${shared.name} ${shared.version}${shared.requiredVersion ? ` (needs ${shared.requiredVersion})` : ''}, and the shell provides ${shellVersion}: one copy serves the whole page, so the majors must match`,
      );
    }
  }
  const shells = (descriptor.paths ?? []).filter((p) => (shellPaths as readonly string[]).includes(p));
  if (shells.length) problems.push(`${shells.map((p) => `/${p}`).join(', ')} ${shells.length > 1 ? 'are' : 'is'} the shell's own`);
  for (const other of candidate.others) {
    if (other.name === name) continue;
    const taken = (descriptor.paths ?? []).filter((p) => other.paths.includes(p));
    if (taken.length)
      problems.push(
        `the path${taken.length > 1 ? 's' : ''} ${taken.map((p) => `/${p}`).join(', ')} belong${taken.length > 1 ? '' : 's'} to the remote '${other.name}'`,
      );
  }
  return problems;
}
