// The dispute desk: each dispute's turnaround clock (due date, age, days overdue, penalty), its
// status from the mail or an operator, its story, and the ageing of the open ones. A dispute is the
// EJ records of one transaction (dispute_records_link in functions.sql groups them); its clock is
// the most specific TAT rule's (dispute_clocks_refresh). Age, days overdue and the penalty depend on
// the day, so they are computed for the day asked, never stored.
export * from './schema.ts';
export * from './clock.ts';
export * from './tat-rules.ts';
export * from './records.ts';
export * from './status.ts';
export * from './story.ts';
export * from './follow-up.ts';
export * from './stages.ts';
export * from './rule-sets.ts';
