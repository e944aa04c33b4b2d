import { createHmac, randomUUID } from 'node:crypto';
import type { CatalogSandboxHarness, TestAccount } from '#testing/catalog-sandbox';
import type { BenchStack } from './bench-stack.js';

/**
 * Asks the connector to resync these products: one `resync` job each, through its own
 * SyncEnqueuer (over IPC). A stand-in for the whole-shop resync, which is not in this checkout
 * yet: the jobs are the ones it would enqueue, the paging through the shop is not measured.
 */
export async function enqueueResyncs(stack: BenchStack, productIds: string[]): Promise<void> {
  for (let i = 0; i < productIds.length; i += 500) {
    const payloads = productIds
      .slice(i, i + 500)
      .map((productId) => ({ shop: stack.shop.domain, productId, reason: 'resync' }));
    await stack.connector.request({ type: 'enqueue', payloads });
  }
}

/**
 * The naive peer's way to sync a whole shop: every product, as the merchant API lists it, sent
 * through its webhook handler as a signed `products/update` (a few at a time). Resolves with
 * the deliveries it refused or failed.
 */
export async function replayToPeer(
  stack: BenchStack,
  products: Array<Record<string, unknown>>,
  parallel = 4,
): Promise<number> {
  const url = `${(stack.peer as NonNullable<BenchStack['peer']>).url}/webhooks/shopify`;
  let next = 0;
  let failed = 0;
  const worker = async () => {
    for (let i = next++; i < products.length; i = next++) {
      const body = JSON.stringify(products[i]);
      const response = await fetch(url, {
        method: 'POST',
        body,
        headers: {
          'content-type': 'application/json',
          'x-shopify-topic': 'products/update',
          'x-shopify-shop-domain': stack.shop.domain,
          'x-shopify-webhook-id': randomUUID(),
          'x-shopify-hmac-sha256': createHmac('sha256', stack.shop.secret).update(body).digest('base64'),
        },
      });
      await response.arrayBuffer();
      if (response.status !== 200) failed++;
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return failed;
}

/** How many records (products and variants) an account holds, read in-process. */
export function recordCount(catalog: CatalogSandboxHarness, account: TestAccount): number {
  let count = 0;
  for (const _ of catalog.sandbox.accounts.require(account.id).products.all()) count++;
  return count;
}
