import { createHmac, randomUUID } from 'node:crypto';
import type { CatalogSandboxHarness, TestAccount } from '#testing/catalog-sandbox';
import type { BenchStack } from './bench-stack.js';

/** The connector's admin token in the benchmarks that drive its admin API (never from the environment). */
export const BENCH_ADMIN_TOKEN = 'bench-resync-admin-token';

/** The part of `GET /admin/resync/{id}` the benchmarks read. */
export interface ResyncRunStatus {
  id: string;
  state: 'running' | 'done' | 'cancelled' | 'failed';
  pages: number;
  walkDone: boolean;
  listed: number;
  done: number;
  failed: number;
  error: string | null;
}

/**
 * The connector's admin resync API over HTTP, as an operator (or the CLI's `resync`) drives it:
 * `start` is `POST /admin/resync?shop=` (the whole shop: the connector walks Shopify page by page
 * and enqueues one sync per product), `show` is `GET /admin/resync/{id}`, `cancel` its `POST .../cancel`.
 */
export function adminResync(stack: BenchStack) {
  const admin = async <T>(method: string, path: string): Promise<T> => {
    const answer = await fetch(`${stack.connector.url}${path}`, {
      method,
      headers: { Authorization: `Bearer ${BENCH_ADMIN_TOKEN}` },
    });
    if (!answer.ok) throw new Error(`${method} ${path}: ${answer.status} ${await answer.text()}`);
    return (await answer.json()) as T;
  };
  return {
    start: () =>
      admin<ResyncRunStatus>('POST', `/admin/resync?shop=${encodeURIComponent(stack.shop.domain)}`),
    show: (id: string) => admin<ResyncRunStatus>('GET', `/admin/resync/${encodeURIComponent(id)}`),
    cancel: (id: string) => admin<ResyncRunStatus>('POST', `/admin/resync/${encodeURIComponent(id)}/cancel`),
  };
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
