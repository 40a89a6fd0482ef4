// What the counts offer the lists: a count of a filter's rows that reads at most a bound of them
// (past it, the planner's estimate, said to be one), kept with the data's write version so that
// the same count asked again on the same data is not computed again.
export { countRows, countCacheStats, keptAnswer, type Count, type Counting, exactCounting, listCounting, plannedRows } from './counts.ts';
