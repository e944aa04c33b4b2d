// The shop `freshness` works on: approval products, a resync's worth of products with the edited
// ones spread through them, whose webhook subscriptions the benchmark switches per part, and the
// catalog records of both systems read in-process.
import type { TestAccount } from '#testing/catalog-sandbox';
import { type BenchStack, waitFor } from './bench-stack.js';
import { createProducts } from './shop-fixtures.js';

/** The product topics both systems take (the connector subscribes to these and app/uninstalled). */
const TOPICS = ['PRODUCTS_CREATE', 'PRODUCTS_UPDATE', 'PRODUCTS_DELETE'];

/** Who a part measures: each writes into its own account under its own supplierSku prefix. */
export type System = 'connector' | 'naive';

/** The shop as the benchmark set it up. */
export interface FreshnessShop {
  /** Products the merchant edits, spread evenly through the shop's id order. */
  editIds: number[];
  /** Products whose records are enriched and approved (with a barcode: the catalog's productModel). */
  approvalIds: number[];
  /**
   * One more such product, enriched and edited later than the approval products: the activity
   * that moves the connector's poll checkpoints past them (`ageApprovals`).
   */
  tickId: number;
  /** Every product in the shop. */
  productCount: number;
}

/**
 * Creates the shop with nobody subscribed (so no system syncs anything yet): `approvals` (and
 * one more, the tick) simple products with a barcode (the demo mapping's productModel, which the catalog's enricher
 * needs), then `products` bench tees, of which `edits` evenly spaced in id order (the order a
 * whole-shop resync walks) are the edited ones: a merchant edits any product of the shop, not
 * only the first or last ones a resync reaches.
 */
export async function createFreshnessShop(
  stack: BenchStack,
  options: { products: number; edits: number; approvals: number },
): Promise<FreshnessShop> {
  const approvalIds: number[] = [];
  const withTick = options.approvals + 1;
  for (let i = 0; i < withTick; i += 8) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(8, withTick - i) }, async (_, j) => {
        const answer = await stack.merchant('POST', 'products.json', {
          product: {
            title: `Approval tee ${i + j}`,
            vendor: 'Acme',
            product_type: 'T-Shirts',
            variants: [{ price: '19.00', barcode: '4006381333931', sku: `APPROVAL-${i + j}` }],
          },
        });
        return (answer.product as { id: number }).id;
      }),
    );
    approvalIds.push(...batch);
  }
  const created = await createProducts(stack, options.products, 1, 16);
  const ids = created.map((p) => p.id).sort((a, b) => a - b);
  const step = ids.length / options.edits;
  const editIds = Array.from(
    { length: options.edits },
    (_, k) => ids[Math.floor((k + 0.5) * step)] as number,
  );
  // The update Shopify sends after each create waits out its merge window, and goes to whoever
  // is subscribed by then: let every one go (to nobody) before anyone subscribes.
  await stack.shopify.sandbox.idle();
  const tickId = approvalIds.pop() as number;
  return { editIds, approvalIds, tickId, productCount: approvalIds.length + 1 + ids.length };
}

/** Subscribes `system` to the shop's product webhooks (`<its URL>/webhooks/shopify`). */
export async function subscribe(stack: BenchStack, system: System): Promise<void> {
  const uri = `${serviceUrl(stack, system)}/webhooks/shopify`;
  for (const topic of TOPICS) {
    const answer = await stack.shopify.graphql<{
      webhookSubscriptionCreate: { userErrors: Array<{ message: string }> };
    }>(
      'mutation ($topic: WebhookSubscriptionTopic!, $uri: String!) { webhookSubscriptionCreate(topic: $topic, webhookSubscription: {uri: $uri}) { userErrors { message } } }',
      { topic, uri },
    );
    const errors = answer.errors ?? answer.data?.webhookSubscriptionCreate.userErrors ?? [];
    if (errors.length > 0) throw new Error(`subscribing ${system}: ${JSON.stringify(errors)}`);
  }
}

/** Deletes `system`'s webhook subscriptions: what the merchant does then reaches it no more. */
export async function unsubscribe(stack: BenchStack, system: System): Promise<void> {
  // Deliveries already made wait for nobody: let them reach the system first.
  await stack.shopify.sandbox.idle();
  const prefix = serviceUrl(stack, system);
  const list = await stack.shopify.graphql<{
    webhookSubscriptions: { nodes: Array<{ id: string; uri: string }> };
  }>('{ webhookSubscriptions(first: 50) { nodes { id uri } } }');
  for (const node of list.data?.webhookSubscriptions.nodes ?? []) {
    if (!node.uri.startsWith(prefix)) continue;
    const answer = await stack.shopify.graphql(
      'mutation ($id: ID!) { webhookSubscriptionDelete(id: $id) { userErrors { message } } }',
      { id: node.id },
    );
    if (answer.errors) throw new Error(`unsubscribing ${system}: ${JSON.stringify(answer.errors)}`);
  }
}

function serviceUrl(stack: BenchStack, system: System): string {
  const service = system === 'connector' ? stack.connector : stack.peer;
  if (!service) throw new Error(`no ${system} in this stack`);
  return service.url;
}

/** The account a system writes into. */
export function accountOf(stack: BenchStack, system: System): TestAccount {
  return system === 'connector' ? stack.connectorAccount : stack.peerAccount;
}

/**
 * A product's own record in a system's account, read from the catalog sandbox's store in this
 * process (its supplierSku index): no `/v1` call, nothing spent from the account's budget.
 */
export function productRecord(stack: BenchStack, system: System, productId: number) {
  const prefix = system === 'connector' ? stack.shop.domain.replace(/\.myshopify\.com$/i, '') : 'peer';
  const store = stack.catalog.sandbox.accounts.require(accountOf(stack, system).id).products;
  return store.bySupplierSku(`${prefix}:product:${productId}`).find((r) => r.parentSkuId === null);
}

/** The attribute value of a product's own record in a system's account (in-process), or undefined. */
export function recordValue(stack: BenchStack, system: System, productId: number, key: string): unknown {
  return productRecord(stack, system, productId)?.attributes.get(key)?.value;
}

/** The title the benchmark gives a product at its `seq`th edit; the catalog's `name` follows it. */
export function editTitle(productId: number, seq: number): string {
  return `Fresh tee ${productId} #${seq}`;
}

/** The edit number a title carries, or -1 (not one of the benchmark's titles). */
export function editSeq(title: unknown): number {
  const match = typeof title === 'string' ? /^Fresh tee \d+ #(\d+)$/.exec(title) : null;
  return match ? Number(match[1]) : -1;
}

/**
 * Gives every product of `ids` its first benchmark title (edit 0) and waits until each listed
 * system's account holds it: the products are then "already synced" for the parts that follow.
 */
export async function warmUp(
  stack: BenchStack,
  ids: readonly number[],
  systems: readonly System[],
  timeoutMs: number,
): Promise<void> {
  for (let i = 0; i < ids.length; i += 8) {
    await Promise.all(
      ids
        .slice(i, i + 8)
        .map((id) =>
          stack.merchant('PUT', `products/${id}.json`, { product: { id, title: editTitle(id, 0) } }),
        ),
    );
  }
  for (const system of systems) {
    await waitFor(
      `${system} to hold every product it is given`,
      async () => ids.every((id) => editSeq(recordValue(stack, system, id, 'name')) >= 0),
      timeoutMs,
    );
  }
  await stack.settle(timeoutMs);
}
