import { describe, expect, it } from 'vitest';
import { ShopBulkFaults } from './shop-bulk-faults.js';

const CONFIGURED = { failHalfway: false, urlTtlMs: 7_000 };

describe('ShopBulkFaults', () => {
  it('gives every run the configuration’s faults until told otherwise', () => {
    const faults = new ShopBulkFaults(CONFIGURED);
    expect(faults.take()).toEqual(CONFIGURED);
    expect(faults.take()).toEqual(CONFIGURED);
    expect(faults.state()).toEqual({ faults: CONFIGURED, nextRuns: [] });
  });

  it('keeps a lasting override until it is set back to null', () => {
    const faults = new ShopBulkFaults(CONFIGURED);
    faults.set({ failHalfway: true, urlTtlMs: 5 });
    expect([faults.take(), faults.take()]).toEqual([
      { failHalfway: true, urlTtlMs: 5 },
      { failHalfway: true, urlTtlMs: 5 },
    ]);
    faults.set({ urlTtlMs: null });
    expect(faults.take()).toEqual({ failHalfway: true, urlTtlMs: 7_000 });
  });

  it('applies faults set with runs to that many runs, then goes back to the lasting ones', () => {
    const faults = new ShopBulkFaults(CONFIGURED);
    faults.set({ urlTtlMs: 60_000 });
    expect(faults.set({ failHalfway: true }, 2)).toEqual({
      faults: { failHalfway: true, urlTtlMs: 60_000 },
      nextRuns: [{ failHalfway: true, runsLeft: 2 }],
    });
    expect(faults.take()).toEqual({ failHalfway: true, urlTtlMs: 60_000 });
    expect(faults.state().nextRuns).toEqual([{ failHalfway: true, runsLeft: 1 }]);
    expect(faults.take()).toEqual({ failHalfway: true, urlTtlMs: 60_000 });
    expect(faults.take()).toEqual({ failHalfway: false, urlTtlMs: 60_000 });
    expect(faults.state()).toEqual({ faults: { failHalfway: false, urlTtlMs: 60_000 }, nextRuns: [] });
  });

  it('stacks runs sets, each counting down on its own; a later one wins while both apply', () => {
    const faults = new ShopBulkFaults(CONFIGURED);
    faults.set({ failHalfway: true, urlTtlMs: 1 }, 1);
    faults.set({ urlTtlMs: 2 }, 2);
    expect(faults.take()).toEqual({ failHalfway: true, urlTtlMs: 2 });
    expect(faults.take()).toEqual({ failHalfway: false, urlTtlMs: 2 });
    expect(faults.take()).toEqual(CONFIGURED);
  });

  it('reads a null in a runs set as the configuration’s value for those runs only', () => {
    const faults = new ShopBulkFaults(CONFIGURED);
    faults.set({ failHalfway: true });
    faults.set({ failHalfway: null }, 1);
    expect(faults.take()).toEqual(CONFIGURED);
    expect(faults.take()).toEqual({ failHalfway: true, urlTtlMs: 7_000 });
  });

  it('lets a lasting change made meanwhile show once the runs set is used up', () => {
    const faults = new ShopBulkFaults(CONFIGURED);
    faults.set({ failHalfway: true }, 1);
    faults.set({ failHalfway: false, urlTtlMs: 9 });
    expect(faults.take()).toEqual({ failHalfway: true, urlTtlMs: 9 });
    expect(faults.take()).toEqual({ failHalfway: false, urlTtlMs: 9 });
  });

  it('hands out copies: a run’s faults do not change with the shop’s', () => {
    const faults = new ShopBulkFaults(CONFIGURED);
    const taken = faults.take();
    faults.set({ failHalfway: true, urlTtlMs: 1 });
    expect(taken).toEqual(CONFIGURED);
  });
});
