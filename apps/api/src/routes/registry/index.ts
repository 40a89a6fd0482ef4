// /api/registry/: the remote registry. Reading it is public (it is what remotes.json
// says, and every shell server reads it from here); deploying, rolling back and the history need the
// deployers' token (REMOTE_DEPLOY_TOKEN), which `pnpm remote` sends. The deployer checks a build
// before it asks (scripts/remote.ts); this API records it and switches in one transaction.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { currentRemotes, deployRemote, remoteHistory, rollbackRemote, type RemoteRelease, type Switched as SwitchResult } from '@ejdesk/db';
import { apiContractVersion } from '@ejdesk/contract';
import { Type } from 'typebox';
import { sameSecret } from '../../lib/secrets.ts';
import { errorResponses } from '@ejdesk/contract/schemas/common.ts';
import { DeployBody, NameParams, Registry, Release, RollbackBody, Switched } from '@ejdesk/contract/schemas/registry.ts';

const entryOf = (release: RemoteRelease) => ({ ...release.descriptor, name: release.name, version: release.version, manifest: release.manifest });

export const registryRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, config } = app.ctx;
  app.setNotFoundHandler((_request, reply) => reply.code(404).send({ detail: 'Not found.' }));

  const deployer = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!config.deployToken) return reply.code(403).send({ detail: 'Deploys are not enabled on this API: set REMOTE_DEPLOY_TOKEN.' });
    const [scheme, token] = String(request.headers.authorization ?? '').split(' ');
    if (scheme !== 'Bearer' || !token || !sameSecret(token, config.deployToken)) {
      return reply.code(401).send({ detail: 'A deploy needs the deployers\u2019 token (Authorization: Bearer REMOTE_DEPLOY_TOKEN).' });
    }
  };
  const switched = (reply: FastifyReply, name: string, result: SwitchResult) =>
    result.ok ? { name, from: result.from, to: result.to } : reply.code(409).send({ detail: result.detail });

  app.get('/', { schema: { response: { 200: Registry, ...errorResponses } } }, async (_request, reply) => {
    void reply.header('cache-control', 'no-cache');
    return { api_contract: apiContractVersion, remotes: (await currentRemotes(db)).map(entryOf) as never };
  });

  app.get(
    '/releases/',
    {
      onRequest: deployer,
      schema: { querystring: Type.Object({ name: Type.Optional(NameParams.properties.name) }), response: { 200: Type.Array(Release), ...errorResponses } },
    },
    async (request) =>
      (await remoteHistory(db, request.query.name)).map((r) => ({
        name: r.name,
        version: r.version,
        manifest: r.manifest,
        deployed_by: r.deployedBy,
        deployed_at: r.deployedAt,
        current: r.current,
      })),
  );

  app.post(
    '/:name/releases/',
    { onRequest: deployer, schema: { params: NameParams, body: DeployBody, response: { 201: Switched, 409: errorResponses[400], ...errorResponses } } },
    async (request, reply) => {
      const { name } = request.params;
      const { version, manifest, descriptor, by } = request.body;
      if (descriptor.name !== name) return reply.code(400).send({ detail: `body: descriptor.name is '${descriptor.name}', not '${name}'.` });
      const result = await deployRemote(db, { name, version, manifest, descriptor, deployedBy: by });
      if (result.ok) void reply.code(201);
      return switched(reply, name, result);
    },
  );

  app.post(
    '/:name/rollback/',
    { onRequest: deployer, schema: { params: NameParams, body: RollbackBody, response: { 200: Switched, 409: errorResponses[400], ...errorResponses } } },
    async (request, reply) => switched(reply, request.params.name, await rollbackRemote(db, request.params.name, request.body.by)),
  );
};
