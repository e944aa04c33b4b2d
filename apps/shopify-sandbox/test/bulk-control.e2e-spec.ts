import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '#lib/clock';
import { type ShopifySandboxHarness, startShopifySandbox } from '#testing/shopify-sandbox';
import { createProducts, readBulk, runBulkQuery } from './bulk-support.js';

const PRODUCTS = '{ products { edges { node { id } } } }';
const STEP = 200;

describe('control API: bulk operations and bulk faults per shop', () => {
  let h: ShopifySandboxHarness;
  let clock: ManualClock;
  afterEach(() => h.close());

  const faults = (body: unknown) => h.control('PUT', `shops/${h.shopDomain}/bulk-faults`, body);

  it('turns failHalfway on and off for one shop, and lists its runs', async () => {
    clock = new ManualClock(Date.UTC(2026, 6, 1));
    h = await startShopifySandbox({ clock });
    await createProducts(h, 4);
    expect((await h.control('GET', `shops/${h.shopDomain}/bulk-faults`)).body).toEqual({
      faults: { failHalfway: false, urlTtlMs: 7 * 24 * 60 * 60 * 1000 },
      nextRuns: [],
    });
    expect((await faults({ failHalfway: true })).body).toMatchObject({ faults: { failHalfway: true } });
    const failing = await runBulkQuery(h, PRODUCTS);
    await clock.advance(STEP * 2);
    expect(await readBulk(h, failing.bulkOperation?.id as string)).toMatchObject({
      status: 'FAILED',
      errorCode: 'INTERNAL_SERVER_ERROR',
      objectCount: '2',
    });
    expect((await faults({ failHalfway: null })).body).toMatchObject({ faults: { failHalfway: false } });
    const working = await runBulkQuery(h, PRODUCTS);
    await clock.advance(STEP * 2);
    expect((await readBulk(h, working.bulkOperation?.id as string))?.status).toBe('COMPLETED');
    const listed = await h.control('GET', `shops/${h.shopDomain}/bulk-operations`);
    expect(listed.body.bulkOperations).toEqual([
      expect.objectContaining({ id: failing.bulkOperation?.id, status: 'FAILED', objectCount: 2 }),
      expect.objectContaining({
        id: working.bulkOperation?.id,
        status: 'COMPLETED',
        objectCount: 4,
        rootObjectCount: 4,
      }),
    ]);
  });

  it('makes one shop’s links expire early with urlTtlMs', async () => {
    clock = new ManualClock();
    h = await startShopifySandbox({ clock });
    await createProducts(h, 1);
    await faults({ urlTtlMs: 5_000 });
    const { bulkOperation } = await runBulkQuery(h, PRODUCTS);
    await clock.advance(STEP * 2);
    const done = await readBulk(h, bulkOperation?.id as string);
    expect((await fetch(done?.url as string)).status).toBe(200);
    // `Expires` is in whole seconds, rounded down: the run ended 400 ms after a whole second.
    await clock.advance(6_000);
    expect((await readBulk(h, bulkOperation?.id as string))?.status).toBe('EXPIRED');
    expect((await fetch(done?.url as string)).status).toBe(400);
  });

  it('applies faults set with runs to the next runs only, then goes back to the lasting ones', async () => {
    clock = new ManualClock(Date.UTC(2026, 6, 1));
    h = await startShopifySandbox({ clock });
    await createProducts(h, 4);
    await faults({ urlTtlMs: 60_000 });
    expect(await faults({ failHalfway: true, runs: 2 })).toEqual({
      status: 200,
      body: {
        faults: { failHalfway: true, urlTtlMs: 60_000 },
        nextRuns: [{ failHalfway: true, runsLeft: 2 }],
      },
    });
    const statuses: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const { bulkOperation } = await runBulkQuery(h, PRODUCTS);
      await clock.advance(STEP * 2);
      statuses.push((await readBulk(h, bulkOperation?.id as string))?.status as string);
    }
    expect(statuses).toEqual(['FAILED', 'FAILED', 'COMPLETED']);
    expect((await h.control('GET', `shops/${h.shopDomain}/bulk-faults`)).body).toEqual({
      faults: { failHalfway: false, urlTtlMs: 60_000 },
      nextRuns: [],
    });
  });

  it('counts only the runs that start: a refused query does not use up a runs set', async () => {
    clock = new ManualClock(Date.UTC(2026, 6, 1));
    h = await startShopifySandbox({ clock });
    await createProducts(h, 2);
    await faults({ failHalfway: true, runs: 1 });
    const refused = await runBulkQuery(h, '{ shop { id } }');
    expect(refused.bulkOperation).toBeNull();
    const { bulkOperation } = await runBulkQuery(h, PRODUCTS);
    await clock.advance(STEP * 2);
    expect((await readBulk(h, bulkOperation?.id as string))?.status).toBe('FAILED');
  });

  it('keeps the faults a run was created with when the shop’s change afterwards', async () => {
    clock = new ManualClock(Date.UTC(2026, 6, 1));
    h = await startShopifySandbox({ clock });
    await createProducts(h, 4);
    await faults({ failHalfway: true });
    const failing = await runBulkQuery(h, PRODUCTS);
    await faults({ failHalfway: null, urlTtlMs: 5_000 });
    const expiring = await runBulkQuery(h, PRODUCTS);
    await faults({ urlTtlMs: null });
    await clock.advance(STEP * 2);
    expect(await readBulk(h, failing.bulkOperation?.id as string)).toMatchObject({
      status: 'FAILED',
      errorCode: 'INTERNAL_SERVER_ERROR',
    });
    const done = await readBulk(h, expiring.bulkOperation?.id as string);
    expect(done?.status).toBe('COMPLETED');
    // Its link's `Expires` is its own 5 s after the end, not the shop's 7 days now in force.
    expect(Number(new URL(done?.url as string).searchParams.get('Expires')) * 1000).toBe(
      Date.UTC(2026, 6, 1) + 5_000,
    );
    await faults({ urlTtlMs: 3_600_000 });
    await clock.advance(5_000);
    expect((await readBulk(h, expiring.bulkOperation?.id as string))?.status).toBe('EXPIRED');
    expect((await fetch(done?.url as string)).status).toBe(400);
  });

  it('refuses runs that is not a positive integer, or that comes without a fault (400)', async () => {
    h = await startShopifySandbox({ clock: new ManualClock() });
    for (const runs of [0, -1, 1.5, '2', null]) {
      expect(await faults({ failHalfway: true, runs })).toEqual({
        status: 400,
        body: { errors: 'runs must be a positive integer' },
      });
    }
    expect(await faults({ runs: 1 })).toEqual({
      status: 400,
      body: { errors: 'runs needs failHalfway or urlTtlMs' },
    });
    expect((await h.control('GET', `shops/${h.shopDomain}/bulk-faults`)).body).toMatchObject({
      faults: { failHalfway: false },
      nextRuns: [],
    });
  });

  it('refuses a malformed body (400), an unknown shop (404) and a missing token (401)', async () => {
    h = await startShopifySandbox({ clock: new ManualClock() });
    expect(await faults({ failHalfway: 'yes', urlTtlMs: 0 })).toEqual({
      status: 400,
      body: {
        errors: 'failHalfway must be true or false (or null); urlTtlMs must be a positive integer (or null)',
      },
    });
    expect((await h.control('GET', 'shops/nope.myshopify.com/bulk-operations')).status).toBe(404);
    const anonymous = await fetch(`${h.url}/sandbox/shops/${h.shopDomain}/bulk-operations`);
    expect(anonymous.status).toBe(401);
  });
});
