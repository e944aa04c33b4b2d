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
    // `Expires` is in whole seconds: the run ended 400 ms after a whole second.
    await clock.advance(6_000);
    expect((await readBulk(h, bulkOperation?.id as string))?.status).toBe('EXPIRED');
    expect((await fetch(done?.url as string)).status).toBe(400);
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
