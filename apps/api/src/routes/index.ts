// The API's routes, one folder per data domain (as packages/db has them), and the URL prefix each
// domain's routes are served under: the URLs are the contract's and the console's, so a domain may
// serve under several (the admins' lists under /api/admin, the original client's under /api/scrape).
// Each route declares its own credential (plugins/credentials.ts). A domain's folder is imported
// here through its index only; no domain imports another's (lint-zones.js).
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { RelyingParty } from '../lib/sso.ts';
import { unknownPathsNeed, type Credential } from '../plugins/credentials.ts';
import { auditRoutes } from './audit/index.ts';
import { bankListRoutes } from './banks/index.ts';
import { approvalRoutes, disputeRoutes, fourEyesRoutes, ruleSetRoutes, tatRuleRoutes } from './disputes/index.ts';
import { alertRoutes } from './alerts/index.ts';
import { ejRecordRoutes } from './ej-records/index.ts';
import { emailRoutes, producedRoutes } from './emails/index.ts';
import { fileRoutes } from './files/index.ts';
import { accountRoutes, passwordSignInRoutes, singleSignOnRoutes } from './identity/index.ts';
import { eventRoutes, mailFlowRoutes, reprocessRoutes, ruleRoutes } from './ingest/index.ts';
import { journalRoutes } from './journals/index.ts';
import { mailboxRoutes } from './mailboxes/index.ts';
import { backupRoutes, metricsRoutes, probeRoutes } from './operations/index.ts';
import { registryRoutes } from './registry/index.ts';
import { preferenceRoutes, viewRoutes } from './views/index.ts';

// Each plugin's options differ (single sign-on takes its relying party): the table holds them loosely.
type Mounted = [routes: FastifyPluginAsync<never>, prefix: string];

/** Each domain: its routes and where each is served. */
const domains = (relyingParty: RelyingParty | undefined): Record<string, Mounted[]> => ({
  emails: [
    [emailRoutes, '/api/scrape'],
    [producedRoutes, '/api/emails'],
  ],
  'ej-records': [[ejRecordRoutes, '/api/scrape']],
  files: [[fileRoutes, '/api/scrape']],
  banks: [[bankListRoutes, '/api/scrape']],
  disputes: [
    [disputeRoutes, '/api/disputes'],
    [tatRuleRoutes, '/api/admin'],
    [alertRoutes, '/api/admin'],
    [ruleSetRoutes, '/api/admin'],
    [approvalRoutes, '/api/approvals'],
    [fourEyesRoutes, '/api/admin'],
  ],
  journals: [[journalRoutes, '/api/journals']],
  ingest: [
    [mailFlowRoutes, '/api/mail-flow'],
    [eventRoutes, '/api/events'],
    [ruleRoutes, '/api/admin'],
    [reprocessRoutes, '/api/admin'],
  ],
  mailboxes: [[mailboxRoutes, '/api/admin']],
  identity: [
    [passwordSignInRoutes, '/api/auth/jwt'],
    [
      async (app) => {
        await app.register(singleSignOnRoutes, { relyingParty });
      },
      '/api/auth/oidc',
    ],
    [accountRoutes, '/api/admin'],
  ],
  views: [
    [viewRoutes, '/api/views'],
    [preferenceRoutes, '/api/preferences'],
  ],
  audit: [[auditRoutes, '/api/admin']],
  registry: [[registryRoutes, '/api/registry']],
  operations: [
    [probeRoutes, ''],
    [metricsRoutes, ''],
    [backupRoutes, '/api/backup'],
  ],
});

/**
 * An unknown path under a prefix asks for the prefix's credential before it is answered 404, so
 * that whether a path exists is told only to whoever may call it. Everything else is the root's 404.
 */
const unknownPaths: [prefix: string, credential: Credential][] = [
  ['/api/scrape', 'user'],
  ['/api/admin', 'admin'],
  ['/api/disputes', 'user'],
  ['/api/journals', 'user'],
  ['/api/mail-flow', 'user'],
  ['/api/events', 'user'],
  ['/api/views', 'user'],
  ['/api/preferences', 'user'],
  ['/api/registry', 'none'],
];

export async function registerRoutes(app: FastifyInstance, { relyingParty }: { relyingParty?: RelyingParty | undefined }): Promise<void> {
  for (const mounted of Object.values(domains(relyingParty))) {
    for (const [routes, prefix] of mounted) await app.register(routes as FastifyPluginAsync, { prefix });
  }
  for (const [prefix, credential] of unknownPaths) {
    await app.register(
      async (scope) => {
        scope.addHook('onRequest', unknownPathsNeed(credential));
        scope.setNotFoundHandler((_request, reply) => reply.code(404).send({ detail: 'Not found.' }));
      },
      { prefix },
    );
  }
}
