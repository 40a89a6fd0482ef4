// The origins each remote's releases may come from (Releases, admins): the configured ones
// (REMOTE_ORIGINS) and those admins allow here. The API refuses a deploy from anywhere else and
// never serves a release off them.
import type { Answer } from '@ejdesk/contract';
import type * as registry from '@ejdesk/contract/schemas/registry.ts';
import { http } from '@ejdesk/api-client';

export type AllowedOrigin = Answer<typeof registry.RemoteOrigin>;

export const listAllowedOrigins = async () => (await http.get<AllowedOrigin[]>('/registry/origins/')).data;
export const allowOrigin = async (fields: { remote: string; origin: string }) =>
  (await http.post<AllowedOrigin>('/registry/origins/', { remote: fields.remote, origin: fields.origin.trim() })).data;
export const removeAllowedOrigin = async (id: number) => void (await http.delete(`/registry/origins/${id}/`));
