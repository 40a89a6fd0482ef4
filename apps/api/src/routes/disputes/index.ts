// Disputes: the dispute desk, and the turnaround rules its clock runs on.
export { disputeRoutes } from './disputes.ts';
export { tatRuleRoutes } from './tat-rules.ts';
export { ruleSetRoutes } from './rule-sets.ts';
export { approvalRoutes, fourEyesRoutes } from './approvals.ts';
