import { Type } from 'typebox';
import { Timestamp } from './common.ts';

const Name = Type.String({ pattern: '^[a-z][a-z0-9-]{0,39}$' });
const Version = Type.String({ pattern: '^[0-9A-Za-z][0-9A-Za-z.+_-]{0,63}$' });

/** What a remote's build declares (ejdesk-remote.json): checked again by the deployer. */
const Descriptor = Type.Object(
  {
    name: Name,
    section: Type.String({ minLength: 1, maxLength: 100 }),
    role: Type.Optional(Type.Literal('admin')),
    paths: Type.Array(Type.String({ pattern: '^[a-z0-9][a-z0-9-]{0,79}$' }), { maxItems: 100 }),
    nav: Type.Array(
      Type.Object({ label: Type.String({ minLength: 1, maxLength: 60 }), path: Type.String({ pattern: '^/[a-z0-9/-]{0,120}$' }), order: Type.Number() }),
      { maxItems: 50 },
    ),
    screens: Type.Optional(Type.Record(Type.String({ maxLength: 60 }), Type.String({ pattern: '^/[a-z0-9/-]{0,120}$' }))),
    contract: Type.Optional(Type.Integer({ minimum: 1 })),
  },
  { additionalProperties: true },
);

/** One remote as the shell loads it: remotes.json's entries. */
export const RegistryEntry = Type.Intersect([Descriptor, Type.Object({ manifest: Type.String(), version: Version })]);
/** The API contract this API serves, and the remotes: what a remote build must match to deploy. */
export const Registry = Type.Object({ api_contract: Type.Integer(), remotes: Type.Array(RegistryEntry) });

export const Release = Type.Object({
  name: Type.String(),
  version: Type.String(),
  manifest: Type.String(),
  deployed_by: Type.String(),
  deployed_at: Timestamp,
  current: Type.Boolean(),
});

export const DeployBody = Type.Object(
  {
    version: Version,
    manifest: Type.String({ format: 'uri', pattern: '^https?://', maxLength: 2000 }),
    descriptor: Descriptor,
    by: Type.String({ minLength: 1, maxLength: 100 }),
  },
  { additionalProperties: false },
);
export const RollbackBody = Type.Object({ by: Type.String({ minLength: 1, maxLength: 100 }) }, { additionalProperties: false });
export const NameParams = Type.Object({ name: Name });
export const Switched = Type.Object({ name: Type.String(), from: Type.Union([Type.String(), Type.Null()]), to: Type.String() });
