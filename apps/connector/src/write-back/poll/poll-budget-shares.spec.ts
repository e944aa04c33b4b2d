import { describe, expect, it } from 'vitest';
import { pollBudgetShares } from './poll-budget-shares.js';

const HOUR = 3_600_000;

describe('pollBudgetShares', () => {
  it("sums each account's shops' scheduled and early calls against its budget over the window; an operator's polls beside them", () => {
    const [one, two] = pollBudgetShares({
      rows: [
        { trigger: 'schedule', shop: 'a', polls: 60, calls: 120 },
        { trigger: 'early', shop: 'a', polls: 200, calls: 400 },
        { trigger: 'early', shop: 'b', polls: 100, calls: 200 },
        { trigger: 'admin', shop: 'b', polls: 2, calls: 10 },
        { trigger: 'schedule', shop: 'c', polls: 60, calls: 60 },
        // A shop no account lists any more: left out.
        { trigger: 'early', shop: 'gone', polls: 5, calls: 5 },
      ],
      accounts: [
        { id: 'k1', shops: ['a', 'b'] },
        { id: 'k2', shops: ['c'] },
      ],
      windowSeconds: HOUR / 1000,
      ratePerSecond: 10,
      bound: 0.1,
    });
    expect(one).toEqual({
      account: 'k1',
      shops: ['a', 'b'],
      polls: { schedule: 60, early: 300, admin: 2 },
      calls: { schedule: 120, early: 600, admin: 10 },
      budgetCalls: 36_000,
      share: 720 / 36_000,
      bound: 0.1,
    });
    expect(two?.share).toBe(60 / 36_000);
    expect(two?.calls.early).toBe(0);
  });

  it('answers a share of 0 for an empty window, and an account without polls', () => {
    const [only] = pollBudgetShares({
      rows: [],
      accounts: [{ id: 'k1', shops: ['a'] }],
      windowSeconds: 0,
      ratePerSecond: 10,
      bound: 0.1,
    });
    expect(only).toMatchObject({ budgetCalls: 0, share: 0, calls: { schedule: 0, early: 0, admin: 0 } });
  });
});
