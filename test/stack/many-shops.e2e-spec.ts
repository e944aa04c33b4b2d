import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from './support/connector-world.js';
import { type ManyShop, ManyShopsStack } from './support/many-shops-stack.js';

const SHOPS = 20;
/** The big shop's products: its resync runs while the others' edits arrive. */
const BIG_PRODUCTS = 120;
/** Every catalog key's budget (the connector's): low, so the big shop's resync lasts seconds. */
const CATALOG_RATE = 20;

interface ShopOverview {
  shop: string;
  state: string;
  reasons: string[];
  authState: string;
  breaker: string;
  openFailures: Record<string, number>;
}

interface FailurePage {
  items: Array<{ shop: string; jobKind: string; state: string; error: { code: string } }>;
  total: number;
}

// Issue 45: twenty shops installed through OAuth over two connector replicas (one schema, one
// queue namespace), each with its own catalog account. One resyncs its whole shop, one has its
// catalog key revoked, one uninstalls the app; every other shop's merchant edit reaches its own
// account, and no failure opens for any of them.
describe('twenty shops over two replicas: a resync and two faulty shops stay their own', () => {
  let stack: ManyShopsStack;
  let big: ManyShop;
  let revoked: ManyShop;
  let uninstalled: ManyShop;
  let others: ManyShop[];
  const products = new Map<string, number>();

  beforeAll(async () => {
    stack = await ManyShopsStack.start({ shops: SHOPS, catalogRate: CATALOG_RATE });
    [big, revoked, uninstalled, ...others] = stack.shops as [ManyShop, ManyShop, ManyShop, ...ManyShop[]];
    // Every product made before the install (nobody subscribed): no webhook carries them.
    for (const shop of stack.shops.slice(1))
      products.set(shop.domain, await stack.createProduct(shop, `Tee of ${shop.name}`));
    await Promise.all(
      Array.from({ length: BIG_PRODUCTS / 10 }, async (_, i) => {
        for (let j = 0; j < 10; j++) await stack.createProduct(big, `Big tee ${i * 10 + j}`);
      }),
    );
    await stack.shopify.sandbox.idle();
    // Five merchants at a time: concurrent installs each find their shop (Shops.refresh).
    for (let i = 0; i < stack.shops.length; i += 5)
      await Promise.all(stack.shops.slice(i, i + 5).map((shop) => stack.install(shop)));
    // Every shop's webhooks subscribed (its install's check, run by either replica) before any
    // merchant edits: an edit made before would reach no one (a real store's reconciliation finds it).
    await eventually(async () => {
      const listed = await stack.shopify.control('GET', 'shops');
      const counts = listed.body.shops as Array<{ domain: string; webhookSubscriptions: number }>;
      return stack.shops.every(
        (shop) => (counts.find((s) => s.domain === shop.domain)?.webhookSubscriptions ?? 0) >= 4,
      );
    }, 30_000);
    // The keys through the second replica: it learns of shops installed at the first from the table.
    const [, second] = stack.replicas;
    await Promise.all(
      stack.shops.map((shop) =>
        eventually(() =>
          stack.admin(second, 'PUT', `/admin/shops/${shop.domain}/catalog-key`, {
            apiKey: shop.account.apiKey,
          }),
        ),
      ),
    );
  }, 110_000);
  afterAll(async () => {
    await stack?.close();
  });

  it("keeps every other shop's edits flowing and failure-free while one resyncs, one's key is revoked and one is uninstalled", async () => {
    const [first, second] = stack.replicas;
    const run = await stack.admin<{ id: string }>(first, 'POST', `/admin/resync?shop=${big.domain}`);
    await revoked.account.controls.setKeysActive(false);
    const uninstall = await stack.shopify.control('POST', `shops/${uninstalled.domain}/uninstall`, {
      clientId: stack.appClientId,
    });
    expect(uninstall.status).toBe(200);
    for (const shop of [revoked, ...others]) {
      const id = products.get(shop.domain) as number;
      await stack.merchant(shop, 'PUT', `products/${id}.json`, {
        product: { id, title: `Edited in ${shop.name}` },
      });
    }

    // Every other shop's edit reaches its own account.
    await eventually(
      async () =>
        others.every(
          (shop) => stack.recordName(shop, products.get(shop.domain) as number) === `Edited in ${shop.name}`,
        ),
      60_000,
    );
    // The big shop's resync ends with every product, none failed.
    await eventually(async () => {
      const shown = await stack.admin<{ state: string; done: number; failed: number }>(
        second,
        'GET',
        `/admin/resync/${run.id}`,
      );
      return shown.state !== 'running' && shown;
    }, 60_000).then((shown) => expect(shown).toMatchObject({ state: 'done', done: BIG_PRODUCTS, failed: 0 }));
    expect(stack.records(big)).toBe(BIG_PRODUCTS);

    // The revoked shop's edit never reached its account, and the overview says why.
    const overview = await eventually(async () => {
      const page = await stack.admin<{ shops: ShopOverview[] }>(second, 'GET', '/admin/overview?limit=50');
      const of = (shop: ManyShop) => page.shops.find((s) => s.shop === shop.domain);
      return of(revoked)?.state !== 'healthy' && of(uninstalled)?.authState === 'uninstalled' && page.shops;
    }, 30_000);
    expect(stack.recordName(revoked, products.get(revoked.domain) as number)).toBeUndefined();
    const entry = (shop: ManyShop) => overview.find((s) => s.shop === shop.domain) as ShopOverview;
    expect(entry(uninstalled)).toMatchObject({ state: 'failing', authState: 'uninstalled' });
    expect(entry(revoked).state).not.toBe('healthy');

    // No failure for any other shop, in any state; the big shop's and the healthy ones' overview: healthy.
    for (const shop of [big, ...others]) {
      const failures = await stack.admin<FailurePage>(first, 'GET', `/admin/failures?shop=${shop.domain}`);
      expect(failures.items, shop.domain).toEqual([]);
      expect(entry(shop), shop.domain).toMatchObject({
        state: 'healthy',
        openFailures: {},
        breaker: 'closed',
      });
    }
    // What failed is the faulty shops' alone.
    const all = await stack.admin<FailurePage>(first, 'GET', '/admin/failures?limit=500');
    expect(all.items.filter((f) => f.shop !== revoked.domain && f.shop !== uninstalled.domain)).toEqual([]);
    // Both replicas worked.
    for (const replica of stack.replicas)
      expect(await stack.syncJobs(replica), replica.url).toBeGreaterThan(0);
  }, 120_000);
});
