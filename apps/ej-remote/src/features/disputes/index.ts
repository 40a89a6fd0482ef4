// What the disputes feature offers the other features: the clock as operators read it, the
// turnaround quick filters, the bulk status change of the EJ table and its journal evidence
// (the suggestion applied to all matching, their evidence ZIP).
export { BulkEvidence } from './BulkEvidence.tsx';
export { BulkStatus } from './BulkStatus.tsx';
export { DueDate, NextDeadline, penaltyText, StatusChip } from './clock.tsx';
export { QuickFilters, tatChoices } from './QuickFilters.tsx';
export { disputesOf, keepTrail } from './trail.ts';
export { UndoLastChange, useLastChange } from './LastChange.tsx';
export { BulkFollowUp } from './FollowUp.tsx';
