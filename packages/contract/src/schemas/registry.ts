import { Type, type Static } from 'typebox';
import { Timestamp } from './common.ts';

const Name = Type.String({ pattern: '^[a-z][a-z0-9-]{0,39}$' });
const Version = Type.String({ pattern: '^[0-9A-Za-z][0-9A-Za-z.+_-]{0,63}$' });

/**
 * What a remote owns, as its build declares it (ejdesk-remote.json, from the remote's
 * src/descriptor.ts): the shell draws its routes and side nav from every remote's, so a remote adds
 * or renames a screen with no shell release. Checked by the deployer, and again by the API (its
 * paths no other remote's nor the shell's, its side nav inside them, its contract the API's).
 */
const Descriptor = Type.Object(
  {
    name: Name,
    /** The section in the operators' words ('admin lists'): named when a role may not open it. */
    section: Type.String({ minLength: 1, maxLength: 100 }),
    /** The role its screens need beyond signing in. */
    role: Type.Optional(Type.Literal('admin')),
    /** The first path segments of its screens. */
    paths: Type.Array(Type.String({ pattern: '^[a-z0-9][a-z0-9-]{0,79}$' }), { maxItems: 100 }),
    /** Its side-nav entries; the shell orders every remote's by `order`. */
    nav: Type.Array(
      Type.Object({ label: Type.String({ minLength: 1, maxLength: 60 }), path: Type.String({ pattern: '^/[a-z0-9/-]{0,120}$' }), order: Type.Number() }),
      { maxItems: 50 },
    ),
    /**
     * Screens others may link to, by a name in the operators' words ('mail flow'): the shell's
     * stalled-mail banner asks for 'mail flow', never for a path.
     */
    screens: Type.Optional(Type.Record(Type.String({ maxLength: 60 }), Type.String({ pattern: '^/[a-z0-9/-]{0,120}$' }))),
    /** The API contract version the build was made against (written by the build). */
    contract: Type.Optional(Type.Integer({ minimum: 1 })),
  },
  { additionalProperties: true },
);
/** The descriptor's type, for the build setup and the remotes' src/descriptor.ts. */
export type DescriptorFields = Static<typeof Descriptor>;

/**
 * One remote as the shell loads it: remotes.json's entries. A release the API pinned names its
 * entry script and the SHA-384 of it and of the manifest (SRI form): the shell loads the entry
 * with that integrity.
 */
const RegistryEntry = Type.Intersect([
  Descriptor,
  Type.Object({
    manifest: Type.String(),
    version: Version,
    entry: Type.Optional(Type.String()),
    integrity: Type.Optional(Type.Object({ entry: Type.String(), manifest: Type.String() })),
  }),
]);
/**
 * The API contract this API serves, and the remotes: what a remote build must match to deploy;
 * and each remote's allowed origins, which the shell's servers hold its entries and CSP to.
 */
export const Registry = Type.Object({
  api_contract: Type.Integer(),
  remotes: Type.Array(RegistryEntry),
  origins: Type.Record(Type.String(), Type.Array(Type.String())),
});

export const Release = Type.Object({
  name: Type.String(),
  version: Type.String(),
  manifest: Type.String(),
  deployed_by: Type.String(),
  deployed_at: Timestamp,
  current: Type.Boolean(),
  canary: Type.Boolean(),
  /** Withdrawn: never served or returned to again. */
  withdrawn: Type.Boolean(),
  /** Rolled back from (as current, or as a canary ended): no rollback returns to it. */
  rolled_back: Type.Boolean(),
});

export const DeployBody = Type.Object(
  {
    version: Version,
    manifest: Type.String({ format: 'uri', pattern: '^https?://', maxLength: 2000 }),
    descriptor: Descriptor,
    by: Type.String({ minLength: 1, maxLength: 100 }),
    /** A canary: the release for this share of the operators (percent), the current one for the rest. */
    canary: Type.Optional(Type.Integer({ minimum: 1, maximum: 99 })),
  },
  { additionalProperties: false },
);
export const RollbackBody = Type.Object({ by: Type.String({ minLength: 1, maxLength: 100 }) }, { additionalProperties: false });
/** A release to withdraw, and who asks. */
export const WithdrawBody = Type.Object({ version: Version, by: Type.String({ minLength: 1, maxLength: 100 }) }, { additionalProperties: false });
/** The release withdrawn, and the remote's current release now (null: none is served until the next deploy). */
export const Withdrawn = Type.Object({ name: Type.String(), version: Type.String(), current: Type.Union([Type.String(), Type.Null()]) });
export const NameParams = Type.Object({ name: Name });
export const Switched = Type.Object({ name: Type.String(), from: Type.Union([Type.String(), Type.Null()]), to: Type.String() });

/** A deploy token as the console lists it: never the token itself, nor its hash. */
export const DeployToken = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  /** The remote it deploys; null: every remote (the configured REMOTE_DEPLOY_TOKEN). */
  remote: Type.Union([Name, Type.Null()]),
  configured: Type.Boolean(),
  created_by: Type.Union([Type.String(), Type.Null()]),
  create_at: Timestamp,
});
/** A team's new token: for one remote, under a name the audit log will show. */
export const NewDeployToken = Type.Object(
  { remote: Name, name: Type.String({ minLength: 1, maxLength: 60, pattern: '^[^\\u0000-\\u001f\\u007f]*\\S[^\\u0000-\\u001f\\u007f]*$' }) },
  { additionalProperties: false },
);
/** The new token, shown this once. */
export const CreatedDeployToken = Type.Intersect([DeployToken, Type.Object({ token: Type.String() })]);
const RowId = Type.Integer({ minimum: 1, maximum: 9007199254740991 });
export const TokenIdParams = Type.Object({ id: RowId });

/**
 * An origin a remote's manifests and files may come from: configured (REMOTE_ORIGINS, id null,
 * changed in the configuration) or added by an admin.
 */
export const RemoteOrigin = Type.Object({
  id: Type.Union([Type.Integer(), Type.Null()]),
  remote: Type.String(),
  origin: Type.String(),
  configured: Type.Boolean(),
  created_by: Type.Union([Type.String(), Type.Null()]),
  create_at: Type.Union([Timestamp, Type.Null()]),
});
/** An origin to allow a remote: scheme, host and port only (https://cdn.bank.example). */
export const NewRemoteOrigin = Type.Object({ remote: Name, origin: Type.String({ minLength: 1, maxLength: 300 }) }, { additionalProperties: false });
export const OriginIdParams = Type.Object({ id: RowId });

/** A release as the Releases screen shows it: who deployed it, when, and how many operators it failed to load for. */
const SlotRelease = Type.Object({
  version: Type.String(),
  deployed_by: Type.String(),
  deployed_at: Timestamp,
  load_failures: Type.Integer(),
});
/** A remote's current release and its canary (a share of the operators), if one runs. */
export const RemoteSlot = Type.Object({
  name: Type.String(),
  current: SlotRelease,
  canary: Type.Union([Type.Intersect([SlotRelease, Type.Object({ percent: Type.Integer(), since: Timestamp })]), Type.Null()]),
});
/** An operator's shell could not load a release of a remote (or it threw at render). */
export const LoadFailureBody = Type.Object({ version: Version }, { additionalProperties: false });
/**
 * The release's count of operators who could not load it; counted: false when the report was not
 * about the release the registry serves that operator (a canary outside its share): not counted.
 */
export const LoadFailureCounted = Type.Object({ load_failures: Type.Integer(), rolled_back: Type.Boolean(), counted: Type.Boolean() });
