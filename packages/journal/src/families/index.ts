// The families parseJournal knows, most specific first: a bank's variant goes before the family it
// varies, so that its own detection lines make it win over the base.
import { diebold } from './diebold.ts';
import type { Family } from './family.ts';
import { hyosung } from './hyosung.ts';
import { ncr } from './ncr.ts';

export const families: readonly Family[] = [ncr, diebold, hyosung];
