// The remote registry for admins: each remote's current and canary release (Releases), and the
// deploy tokens (an admin list): a team's token deploys its own remote only.
import type { Answer } from '@ejdesk/contract';
import type * as registry from '@ejdesk/contract/schemas/registry.ts';
import { http } from '../http.ts';

export type DeployToken = Answer<typeof registry.DeployToken>;
export type CreatedDeployToken = Answer<typeof registry.CreatedDeployToken>;

export const listDeployTokens = async () => (await http.get<DeployToken[]>('/registry/tokens/')).data;
export const createDeployToken = async (fields: Record<'remote' | 'name', string>) =>
  (await http.post<CreatedDeployToken>('/registry/tokens/', { remote: fields.remote.trim(), name: fields.name })).data;
export const revokeDeployToken = async (id: number) => void (await http.delete(`/registry/tokens/${id}/`));

export type RemoteSlot = Answer<typeof registry.RemoteSlot>;
/** Each remote's current release and its canary (Releases, admins). */
export const listRemoteSlots = async () => (await http.get<RemoteSlot[]>('/registry/status/')).data;

/** An admin's rollback or promote from the Releases screen (the rules of `pnpm remote`'s). */
export const switchRemote = async (name: string, action: 'rollback' | 'promote') =>
  (await http.post<{ name: string; from: string | null; to: string }>(`/registry/${name}/console/${action}/`)).data;
