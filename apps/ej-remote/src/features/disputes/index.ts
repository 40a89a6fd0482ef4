// What the disputes feature offers the other features: the clock as operators read it, the
// turnaround quick filters and the bulk status change of the EJ table.
export { BulkStatus } from './BulkStatus.tsx';
export { DueDate, penaltyText, statusText } from './clock.tsx';
export { QuickFilters, tatChoices } from './QuickFilters.tsx';
