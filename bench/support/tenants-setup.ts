// The situation `tenants` measures, built: every shop's products (made before anyone is
// subscribed), every shop installed through OAuth with its catalog key set, and every small
// shop's first resync done. The big shop keeps an empty account: its resync is the load.
import { waitFor } from './bench-stack.js';
import type { ResyncRunStatus } from './resync.js';
import { forEachLimited, type TenantShop, type TenantsStack } from './tenants-stack.js';

/** What the setup made and how long each step took. */
export interface TenantsSetup {
  /** Product ids per shop domain, in creation order. */
  products: Map<string, number[]>;
  /** The big shop's products as the merchant API answered their creation (REST shape): the naive peer's replay. */
  bigProducts: Array<Record<string, unknown> & { id: number }>;
  timings: { productsMs: number; installsMs: number; keysMs: number; firstResyncsMs: number };
}

/** `count` simple products in `shop` through the merchant API, a few at a time, as the API answered. */
async function createShopProducts(
  stack: TenantsStack,
  shop: TenantShop,
  count: number,
  parallel: number,
): Promise<Array<Record<string, unknown> & { id: number }>> {
  const created: Array<Record<string, unknown> & { id: number }> = new Array(count);
  await forEachLimited(
    Array.from({ length: count }, (_, i) => i),
    parallel,
    async (i) => {
      const answer = await stack.merchant(shop, 'POST', 'products.json', { product: tenantProduct(i) });
      created[i] = answer.product as Record<string, unknown> & { id: number };
    },
  );
  return created;
}

/**
 * Builds the situation: `smallProducts` products in every shop but the last (the big one), which
 * gets `bigProducts`; installs every shop (the merchant's browser through OAuth) and sets its
 * catalog key (the admin API); resyncs every small shop and waits until each account holds its
 * products and every run is done. Nobody is subscribed while the products are made, so no
 * webhook carries them: each small shop's resync does, and the big shop's waits for the
 * benchmark.
 */
export async function setUpTenants(
  stack: TenantsStack,
  options: { smallProducts: number; bigProducts: number; timeoutMs: number; log(line: string): void },
): Promise<TenantsSetup> {
  const { shops } = stack;
  const big = shops.at(-1) as TenantShop;
  const small = shops.slice(0, -1);
  const products = new Map<string, number[]>();
  let t = performance.now();
  const lap = () => {
    const now = performance.now();
    const ms = Math.round(now - t);
    t = now;
    return ms;
  };

  options.log(
    `tenants: ${small.length} shops of ${options.smallProducts} products, one of ${options.bigProducts}`,
  );
  await forEachLimited(small, 4, async (shop) => {
    const created = await createShopProducts(stack, shop, options.smallProducts, 4);
    products.set(
      shop.domain,
      created.map((p) => p.id),
    );
  });
  const bigProducts = await createShopProducts(stack, big, options.bigProducts, 16);
  products.set(
    big.domain,
    bigProducts.map((p) => p.id),
  );
  // Each create's update waits out the merge window, to nobody: let them all go first.
  await stack.shopify.sandbox.idle();
  const productsMs = lap();

  options.log(`tenants: ${shops.length} installs through OAuth`);
  await forEachLimited(shops, 4, (shop) => stack.install(shop));
  const installsMs = lap();
  await forEachLimited(shops, 8, async (shop) => {
    await stack.admin('PUT', `/admin/shops/${shop.domain}/catalog-key`, { apiKey: shop.account.apiKey });
  });
  const keysMs = lap();

  options.log(`tenants: the first resync of ${small.length} shops`);
  const running = new Set<string>();
  await forEachLimited(small, 8, async (shop) => {
    const run = await stack.admin<ResyncRunStatus>(
      'POST',
      `/admin/resync?shop=${encodeURIComponent(shop.domain)}`,
    );
    running.add(run.id);
  });
  await waitFor(
    'every small shop to hold its products and every first resync to be done',
    async () => {
      if (small.some((shop) => accountRecords(stack, shop) < options.smallProducts)) return false;
      // A run ends `done` when it is shown after its last product reported (GET /admin/resync/{id}).
      for (const id of [...running]) {
        const run = await stack.admin<ResyncRunStatus>('GET', `/admin/resync/${id}`);
        if (run.state === 'running') return false;
        if (run.state !== 'done') throw new Error(`first resync ${id}: ${run.state} ${run.error ?? ''}`);
        running.delete(id);
      }
      return true;
    },
    options.timeoutMs,
  );
  return { products, bigProducts, timings: { productsMs, installsMs, keysMs, firstResyncsMs: lap() } };
}

/** How many records (products and variants) a shop's account holds, read in-process. */
export function accountRecords(stack: TenantsStack, shop: TenantShop): number {
  return stack.catalog.sandbox.accounts.require(shop.account.id).products.size;
}

/**
 * A simple product as a merchant makes it: with a barcode, so the reference mapping sets
 * `productModel` and the overview sees no mapping gap (a shop's products all without one would
 * make it `degraded` and hide what the benchmark looks for).
 */
function tenantProduct(index: number): Record<string, unknown> {
  return {
    title: `Tenant tee ${index}`,
    vendor: 'Acme',
    product_type: 'T-Shirts',
    body_html: `<p>Tenant product ${index}.</p>`,
    variants: [
      {
        price: `${10 + (index % 50)}.00`,
        sku: `TENANT-${index}`,
        barcode: '4006381333931',
        inventory_quantity: 10,
      },
    ],
  };
}
