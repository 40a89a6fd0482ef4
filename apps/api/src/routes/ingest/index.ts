// Ingest: whether the mail flows (Mail Flow, the live events), the ingester's rules, and an email
// sent through the ingester again.
export { eventRoutes } from './events.ts';
export { mailFlowRoutes } from './mail-flow.ts';
export { reprocessRoutes } from './reprocess.ts';
export { ruleRoutes } from './rules.ts';
