// /api/registry/: the remote registry. Reading it is public (it is what remotes.json says, and
// every shell server reads it from here); deploying, rolling back, withdrawing and the history
// need a deploy token, which `pnpm remote` sends: a team's token touches its own remote only, the
// configured REMOTE_DEPLOY_TOKEN every remote. Admins create, list and revoke tokens (/tokens/)
// and the origins each remote may come from (/origins/). Whatever client deploys, this API checks
// the release itself (checks.ts), pins its entry's and manifest's hashes, and records and switches
// in one transaction; it never serves a release off its remote's allowed origins.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  createDeployToken,
  deployRemote,
  inCanaryShare,
  listDeployTokens,
  promoteRemote,
  remoteHistory,
  remoteSlots,
  reportLoadFailure,
  revokeDeployToken,
  rollbackRemote,
  withdrawRelease,
  addRemoteOrigin,
  listRemoteOrigins,
  removeRemoteOrigin,
  type DeployTokenRow,
  type RemoteRelease,
  type Servable,
  type Switched as SwitchResult,
} from '@ejdesk/db';
import { apiContractVersion, bareOrigin, isRemoteName, remoteNames } from '@ejdesk/contract';
import { Type } from 'typebox';
import { configuredDeployTokenRecorded } from '../../lib/deploy-tokens.ts';
import { errorResponses } from '@ejdesk/contract/schemas/common.ts';
import {
  CreatedDeployToken,
  DeployBody,
  DeployToken,
  LoadFailureBody,
  LoadFailureCounted,
  NameParams,
  NewDeployToken,
  NewRemoteOrigin,
  OriginIdParams,
  Registry,
  RemoteOrigin,
  Release,
  RemoteSlot,
  RollbackBody,
  Switched,
  TokenIdParams,
  WithdrawBody,
  Withdrawn,
} from '@ejdesk/contract/schemas/registry.ts';
import { claimRefusal, pinRelease, Refusal } from './checks.ts';

const entryOf = (release: RemoteRelease) => ({
  ...release.descriptor,
  name: release.name,
  version: release.version,
  manifest: release.manifest,
  ...(release.entry && release.entryIntegrity && release.manifestIntegrity
    ? { entry: release.entry, integrity: { entry: release.entryIntegrity, manifest: release.manifestIntegrity } }
    : {}),
});
const originOf = (url: string) => {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
};
const tokenOf = (row: DeployTokenRow) => ({
  id: row.id,
  name: row.name,
  remote: row.remote,
  configured: row.configured,
  created_by: row.createdBy,
  create_at: row.createAt,
});

/** The paths a release's descriptor claims. */
const pathsOf = (release: RemoteRelease) => (Array.isArray(release.descriptor.paths) ? (release.descriptor.paths as string[]) : []);

export const registryRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, config } = app.ctx;
  const configuredRecorded = () => configuredDeployTokenRecorded(app.ctx);

  /** A team's token touches its own remote only. */
  const mayTouch = (request: FastifyRequest, reply: FastifyReply, name: string) => {
    const token = request.deployToken!;
    if (token.remote === null || token.remote === name) return true;
    void reply.code(403).send({ detail: `The deploy token '${token.name}' deploys ${token.remote} only, not ${name}.` });
    return false;
  };

  /** Each remote's allowed origins: REMOTE_ORIGINS's, and those admins added. */
  const allowedOrigins = async () => {
    const allowed = new Map(remoteNames.map((n) => [n as string, new Set(config.remoteOrigins[n] ?? [])]));
    for (const row of await listRemoteOrigins(db)) allowed.get(row.remote)?.add(row.origin);
    return allowed;
  };
  /** Whether a release may be served: its manifest and entry both on its remote's allowed origins. */
  const servableBy =
    (allowed: Map<string, Set<string>>): Servable =>
    (name, manifest, entry) => {
      const origins = allowed.get(name);
      const on = (url: string) => origins?.has(originOf(url) ?? '') ?? false;
      return on(manifest) && (entry === null || on(entry));
    };
  const switched = (reply: FastifyReply, name: string, result: SwitchResult) =>
    result.ok ? { name, from: result.from, to: result.to } : reply.code(409).send({ detail: result.detail });

  // Asked with an operator's access token (the shell forwards the page's), each remote's entry is
  // the release for that operator: a canary's for the operators in its share, the current one for
  // the rest and for anyone else.
  // A release off its remote's allowed origins (recorded before they were checked, or an origin
  // since removed) is never served: a canary gives way to the current release, and a remote whose
  // current release is off them is left out.
  app.get('/', { config: { credential: 'none' }, schema: { response: { 200: Registry, ...errorResponses } } }, async (request, reply) => {
    void reply.header('cache-control', 'no-cache').header('vary', 'authorization');
    const operator = operatorOf(request);
    const [slots, allowed] = await Promise.all([remoteSlots(db), allowedOrigins()]);
    const servable = servableBy(allowed);
    const served = (r: RemoteRelease) => servable(r.name, r.manifest, r.entry);
    return {
      api_contract: apiContractVersion,
      remotes: slots
        .map((s) => (s.canary && operator !== null && inCanaryShare(s.name, operator, s.canary.percent) && served(s.canary) ? s.canary : s.current))
        .filter(served)
        .map(entryOf) as never,
      origins: Object.fromEntries([...allowed].map(([name, origins]) => [name, [...origins]])),
    };
  });

  /** The operator an access token names (signature and expiry checked), or null. */
  const operatorOf = (request: FastifyRequest): number | null => {
    const match = /^(?:JWT|Bearer) +(\S+)$/i.exec(request.headers.authorization ?? '');
    const claims = match ? app.ctx.tokens.verify(match[1]!) : null;
    return claims && claims.token_type === 'access' ? claims.user_id : null;
  };

  app.get(
    '/releases/',
    {
      config: { credential: 'deployer' },
      schema: { querystring: Type.Object({ name: Type.Optional(NameParams.properties.name) }), response: { 200: Type.Array(Release), ...errorResponses } },
    },
    async (request, reply) => {
      const token = request.deployToken!;
      // A team's token reads its own remote's history.
      const name = token.remote ?? request.query.name;
      if (request.query.name && !mayTouch(request, reply, request.query.name)) return reply;
      return (await remoteHistory(db, name)).map((r) => ({
        name: r.name,
        version: r.version,
        manifest: r.manifest,
        deployed_by: r.deployedBy,
        deployed_at: r.deployedAt,
        current: r.current,
        canary: r.canary,
        withdrawn: r.withdrawn,
        rolled_back: r.rolledBack,
      }));
    },
  );

  app.post(
    '/:name/releases/',
    {
      config: { credential: 'deployer' },
      schema: { params: NameParams, body: DeployBody, response: { 201: Switched, 409: errorResponses[400], ...errorResponses } },
    },
    async (request, reply) => {
      const { name } = request.params;
      if (!mayTouch(request, reply, name)) return reply;
      const { version, manifest, descriptor, by, canary } = request.body;
      if (descriptor.name !== name) return reply.code(400).send({ detail: `body: descriptor.name is '${descriptor.name}', not '${name}'.` });
      const refuse = (refusal: Refusal) => reply.code(refusal.status).send({ detail: `${name} ${version} is refused: ${refusal.message}` });
      // What the descriptor claims first (no fetch), then the files, read from where browsers will.
      const claimed = claimRefusal(
        name,
        descriptor,
        (await remoteSlots(db)).flatMap((s) => [s.current, ...(s.canary ? [s.canary] : [])]).map((r) => ({ name: r.name, paths: pathsOf(r) })),
      );
      if (claimed) return refuse(claimed);
      const origins = (await allowedOrigins()).get(name)!;
      let pinned;
      try {
        pinned = await pinRelease(name, manifest, (origin) => origins.has(origin));
      } catch (err) {
        if (err instanceof Refusal) return refuse(err);
        throw err;
      }
      const result = await deployRemote(db, { name, version, manifest, descriptor, deployedBy: by, ...pinned }, request.deployToken!.name, canary);
      if (result.ok) void reply.code(201);
      return switched(reply, name, result);
    },
  );

  // Rollback and promote: the same call on the remote's current release and its canary.
  for (const [action, run] of [
    ['rollback', rollbackRemote],
    ['promote', promoteRemote],
  ] as const) {
    app.post(
      `/:name/${action}/`,
      {
        config: { credential: 'deployer' },
        schema: { params: NameParams, body: RollbackBody, response: { 200: Switched, 409: errorResponses[400], ...errorResponses } },
      },
      async (request, reply) => {
        const { name } = request.params;
        if (!mayTouch(request, reply, name)) return reply;
        return switched(reply, name, await run(db, name, request.body.by, request.deployToken!.name, servableBy(await allowedOrigins())));
      },
    );
    // The same, by an admin from the Releases screen: the same rules and audit, the admin named.
    app.post(
      `/:name/console/${action}/`,
      {
        config: { credential: 'admin' },
        schema: { params: NameParams, response: { 200: Switched, 409: errorResponses[400], ...errorResponses } },
      },
      async (request, reply) => {
        const { name } = request.params;
        if (!isRemoteName(name)) return reply.code(404).send({ detail: `No remote is called ${name}.` });
        return switched(reply, name, await run(db, name, request.user!.email, 'of the Releases screen', servableBy(await allowedOrigins())));
      },
    );
  }

  // A release withdrawn is never served or returned to again: the current one gives way to the
  // newest good release before it, a canary ends.
  app.post(
    '/:name/withdraw/',
    {
      config: { credential: 'deployer' },
      schema: { params: NameParams, body: WithdrawBody, response: { 200: Withdrawn, 409: errorResponses[400], ...errorResponses } },
    },
    async (request, reply) => {
      const { name } = request.params;
      if (!mayTouch(request, reply, name)) return reply;
      const result = await withdrawRelease(
        db,
        { name, version: request.body.version },
        request.body.by,
        request.deployToken!.name,
        servableBy(await allowedOrigins()),
      );
      if (!result.ok) return reply.code(result.status).send({ detail: result.detail });
      return { name, version: result.version, current: result.current };
    },
  );

  // The shell reports a release that failed to load for its operator (or threw at render): counted
  // once per operator, and only for the release served to that operator (202 either way, with
  // counted saying which); a canary past CANARY_ROLLBACK_FAILURES rolls back by itself.
  app.post(
    '/:name/failures/',
    { config: { credential: 'user' }, schema: { params: NameParams, body: LoadFailureBody, response: { 202: LoadFailureCounted, ...errorResponses } } },
    async (request, reply) => {
      const counted = await reportLoadFailure(
        db,
        { name: request.params.name, version: request.body.version, userId: request.user!.id },
        config.canaryRollbackFailures,
      );
      if (!counted) return reply.code(404).send({ detail: `${request.params.name} has no release ${request.body.version}.` });
      return reply.code(202).send({ load_failures: counted.failures, rolled_back: counted.rolledBack, counted: counted.counted });
    },
  );

  app.get('/status/', { config: { credential: 'admin' }, schema: { response: { 200: Type.Array(RemoteSlot), ...errorResponses } } }, async () => {
    const slot = (r: RemoteRelease & { failures: number }) => ({
      version: r.version,
      deployed_by: r.deployedBy,
      deployed_at: r.deployedAt,
      load_failures: r.failures,
    });
    return (await remoteSlots(db, { failures: true })).map((s) => ({
      name: s.name,
      current: slot(s.current),
      canary: s.canary ? { ...slot(s.canary), percent: s.canary.percent, since: s.canary.since } : null,
    }));
  });

  // The origins each remote may come from: REMOTE_ORIGINS's (configured: changed there, not here)
  // and those admins add and remove here (audited). Each widens the console's CSP.
  app.get('/origins/', { config: { credential: 'admin' }, schema: { response: { 200: Type.Array(RemoteOrigin), ...errorResponses } } }, async () => [
    ...remoteNames.flatMap((remote) =>
      (config.remoteOrigins[remote] ?? []).map((origin) => ({ id: null, remote, origin, configured: true, created_by: null, create_at: null })),
    ),
    ...(await listRemoteOrigins(db)).map((r) => ({
      id: r.id,
      remote: r.remote,
      origin: r.origin,
      configured: false,
      created_by: r.createdBy,
      create_at: r.createAt,
    })),
  ]);

  app.post(
    '/origins/',
    { config: { credential: 'admin' }, schema: { body: NewRemoteOrigin, response: { 201: RemoteOrigin, 409: errorResponses[400], ...errorResponses } } },
    async (request, reply) => {
      const { remote } = request.body;
      if (!isRemoteName(remote)) return reply.code(400).send({ detail: `remote: '${remote}' is not a remote (${remoteNames.join(', ')}).` });
      const origin = bareOrigin(request.body.origin.trim());
      if (!origin)
        return reply
          .code(400)
          .send({ detail: `origin: '${request.body.origin}' is not an http(s) origin: the scheme, host and port only (https://cdn.bank.example).` });
      if (config.remoteOrigins[remote]?.includes(origin))
        return reply.code(409).send({ detail: `${origin} is allowed for ${remote} already (REMOTE_ORIGINS).` });
      const added = await addRemoteOrigin(db, { remote, origin }, request.user!.id);
      if (!added.ok) return reply.code(added.status).send({ detail: added.detail });
      const { row } = added;
      return reply
        .code(201)
        .send({ id: row.id, remote: row.remote, origin: row.origin, configured: false, created_by: row.createdBy, create_at: row.createAt });
    },
  );

  app.delete(
    '/origins/:id/',
    { config: { credential: 'admin' }, schema: { params: OriginIdParams, response: { 204: Type.Null(), ...errorResponses } } },
    async (request, reply) => {
      if (!(await removeRemoteOrigin(db, request.params.id, request.user!.id)))
        return reply.code(404).send({ detail: 'No such allowed origin (removed already?). The configured ones change in REMOTE_ORIGINS.' });
      return reply.code(204).send(null);
    },
  );

  app.get('/tokens/', { config: { credential: 'admin' }, schema: { response: { 200: Type.Array(DeployToken), ...errorResponses } } }, async () => {
    await configuredRecorded();
    return (await listDeployTokens(db)).map(tokenOf);
  });

  app.post(
    '/tokens/',
    {
      // Before the write's own transaction (plugins/idempotency.ts): shared by every request, it
      // must not be made, or rolled back, inside one of them.
      preHandler: async () => void (await configuredRecorded()),
      config: { credential: 'admin', secret: true },
      schema: { body: NewDeployToken, response: { 201: CreatedDeployToken, 409: errorResponses[400], ...errorResponses } },
    },
    async (request, reply) => {
      const created = await createDeployToken(db, { name: request.body.name.trim(), remote: request.body.remote }, request.user!.id);
      if (!created.ok) return reply.code(created.status).send({ detail: created.detail });
      return reply.code(201).send({ ...tokenOf(created.row), token: created.token });
    },
  );

  app.delete(
    '/tokens/:id/',
    { config: { credential: 'admin' }, schema: { params: TokenIdParams, response: { 204: Type.Null(), ...errorResponses } } },
    async (request, reply) => {
      if (!(await revokeDeployToken(db, request.params.id, request.user!.id)))
        return reply.code(404).send({ detail: 'No such deploy token (revoked already?).' });
      return reply.code(204).send(null);
    },
  );
};
