// Lanes share a budget of raw message bytes: small messages run side by side, a big one alone.
import { expect, test } from 'vitest';
import { MemoryBudget } from '../src/memory.ts';

const tick = () => new Promise((r) => setTimeout(r, 10));

test('small messages run side by side; a big one waits for them, runs alone, and is not overtaken', async () => {
  const budget = new MemoryBudget(16);
  const order: string[] = [];
  await budget.acquire(4);
  await budget.acquire(4); // two small ones side by side
  const big = budget.acquire(40).then(() => order.push('big'));
  const small = budget.acquire(4).then(() => order.push('small'));
  await tick();
  expect(order).toEqual([]); // the big one waits; the small one behind it does not overtake it
  budget.release(4);
  await tick();
  expect(order).toEqual([]);
  budget.release(4);
  await big;
  await tick();
  expect(order).toEqual(['big']); // alone: the small one still waits
  budget.release(40);
  await small;
  expect(order).toEqual(['big', 'small']);
});
