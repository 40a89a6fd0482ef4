// fakeApi's table is typed by the contract: a fixture that drifts from what the API answers fails
// the type check (each @ts-expect-error below must find its error, or tsc fails), and a typed one
// is what the real client then reads.
import { afterEach, describe, expect, it } from 'vitest';
import { listBankMsps } from '../src/index.ts';
import { fakeApi, restoreFakeApi, routes } from '../src/testing.ts';

const at = '2026-11-20T09:30:00Z';
afterEach(restoreFakeApi);

describe('fakeApi', () => {
  it('answers the real client from a table typed by the contract', async () => {
    fakeApi({ '/scrape/bank/msp/list/': [{ id: 1, msp: 'Atlas ATM Services', bank_name: 'Harbor Bank', create_at: at, update_at: at }] });
    expect(await listBankMsps()).toEqual([{ id: 1, msp: 'Atlas ATM Services', bank_name: 'Harbor Bank', create_at: at, update_at: at }]);
  });

  it('refuses, at compile time, a fixture that drifted from the contract', () => {
    // @ts-expect-error a renamed field (msp_name) and a missing one (msp)
    fakeApi({ '/scrape/bank/msp/list/': [{ id: 1, msp_name: 'Atlas', bank_name: 'Harbor Bank', create_at: at, update_at: at }] });
    // @ts-expect-error a wrong type (id as text)
    fakeApi({ '/scrape/bank/msp/list/': [{ id: '1', msp: 'Atlas', bank_name: 'Harbor Bank', create_at: at, update_at: at }] });
    // @ts-expect-error a path the API does not have
    fakeApi({ '/scrape/bank/msps/': [] });
    // @ts-expect-error a computed path is checked too: a dashboard count is not a list
    fakeApi(routes('/scrape/email/dashboard/count/', []));
  });
});
