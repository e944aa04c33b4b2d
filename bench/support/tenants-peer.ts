// The naive peer's part of `tenants`, after the connector's: one process, one naive handler per
// shop (its own catalog client and budget: bench/naive-peer/main.ts with NAIVE_PEER_SHOPS),
// subscribed to every shop's product webhooks; the big shop's products replayed through its
// handler (it has no resync), the same edits and the same faults.
import { createHmac, randomUUID } from 'node:crypto';
import type { TestAccount } from '#testing/catalog-sandbox';
import { PEER_SCRIPT } from './bench-stack.js';
import { type ServiceProcess, startService } from './child-process.js';
import { recordNames } from './tenant-edits.js';
import { type PartOptions, type PartRun, runPart } from './tenants-part.js';
import { forEachLimited, type TenantShop, type TenantsStack } from './tenants-stack.js';

/** The sandbox's default app signs the deliveries of subscriptions made with the merchant's tokens. */
const DEFAULT_APP_SECRET = 'sandbox-app-secret';
const TOPICS = ['PRODUCTS_CREATE', 'PRODUCTS_UPDATE', 'PRODUCTS_DELETE'];

/** What the peer's part measured, with the peer's own counts. */
export interface PeerRun extends PartRun {
  peakRssMb: number | null;
  /** Deliveries each shop's handler failed (answered 500). */
  failedByShop: Record<string, number>;
  replayFailed: number;
  /** The revoked shop's product subscriptions left at the end (the sandbox removes one whose deliveries keep failing). */
  revokedShopSubscriptions: number;
  bigAccount: TestAccount;
}

/**
 * Stops the connector and uninstalls its app everywhere (so nothing is delivered to it any more),
 * then runs the part on the naive peer: accounts of its own with the same limit, its
 * subscriptions, the big shop's products (`bigBodies`, as the merchant API made them) replayed 4 at a time.
 */
export async function runPeerPart(
  stack: TenantsStack,
  options: PartOptions & {
    catalogRate: number;
    big: TenantShop;
    bigBodies: Array<Record<string, unknown>>;
  },
): Promise<PeerRun> {
  await stack.connector.stop();
  await forEachLimited(
    stack.shops.filter((s) => s !== options.uninstalled),
    8,
    async (shop) => {
      await stack.shopify.control('POST', `shops/${shop.domain}/uninstall`, { clientId: stack.appClientId });
    },
  );
  const accounts = new Map<string, TestAccount>();
  await forEachLimited(stack.shops, 8, async (shop) => {
    const account = await stack.catalog.createAccount();
    await account.controls.setRateLimit({
      enabled: true,
      ratePerSecond: options.catalogRate,
      burst: Math.max(1, options.catalogRate),
    });
    accounts.set(shop.domain, account);
  });
  const account = (shop: TenantShop) => accounts.get(shop.domain) as TestAccount;
  const peer = await startService(PEER_SCRIPT, {
    PATH: process.env.PATH,
    NAIVE_PEER_WEBHOOK_SECRET: DEFAULT_APP_SECRET,
    NAIVE_PEER_CATALOG_URL: stack.catalog.url,
    NAIVE_PEER_SHOPS: JSON.stringify(Object.fromEntries([...accounts].map(([d, a]) => [d, a.apiKey]))),
    NAIVE_PEER_CATALOG_RATE_PER_SECOND: String(options.catalogRate),
    NAIVE_PEER_CATALOG_RATE_BURST: '1',
  });
  try {
    const uri = `${peer.url}/webhooks/shopify`;
    await forEachLimited(stack.shops, 8, async (shop) => {
      for (const topic of TOPICS) {
        await stack.merchant(shop, 'POST', 'graphql.json', {
          query:
            'mutation ($topic: WebhookSubscriptionTopic!, $uri: String!) { webhookSubscriptionCreate(topic: $topic, webhookSubscription: {uri: $uri}) { userErrors { message } } }',
          variables: { topic, uri },
        });
      }
    });
    let replay: Promise<number> = Promise.resolve(0);
    const run = await runPart(
      stack,
      {
        read: recordNames(
          stack,
          () => 'peer',
          (shop) => account(shop).id,
        ),
        async startBig() {
          replay = replayTo(peer, options.big.domain, options.bigBodies);
        },
        bigRecords: () => stack.catalog.sandbox.accounts.require(account(options.big).id).products.size,
        revokeKey: (shop) => account(shop).controls.setKeysActive(false),
        uninstall: (shop) => unsubscribe(stack, shop, uri),
      },
      options,
    );
    const replayFailed = await replay;
    const byShop = await peer.request<Record<string, { failed: number }>>({ type: 'statsByShop' });
    return {
      ...run,
      peakRssMb: peakMb(peer),
      failedByShop: Object.fromEntries(Object.entries(byShop).map(([d, s]) => [d, s.failed])),
      replayFailed,
      revokedShopSubscriptions: (await subscriptions(stack, options.revoked, uri)).length,
      bigAccount: account(options.big),
    };
  } finally {
    await peer.stop();
  }
}

function peakMb(service: ServiceProcess): number | null {
  const peak = service.peakRss();
  return peak === null ? null : Math.round((peak / 2 ** 20) * 10) / 10;
}

/** The shop's webhook subscriptions to `uri` (as its merchant's app sees them). */
async function subscriptions(stack: TenantsStack, shop: TenantShop, uri: string): Promise<string[]> {
  const answer = (await stack.merchant(shop, 'POST', 'graphql.json', {
    query: '{ webhookSubscriptions(first: 50) { nodes { id uri } } }',
  })) as { data?: { webhookSubscriptions: { nodes: Array<{ id: string; uri: string }> } } };
  return (answer.data?.webhookSubscriptions.nodes ?? []).filter((n) => n.uri === uri).map((n) => n.id);
}

/** The peer's uninstall: the shop's subscriptions to it deleted, so nothing reaches it any more. */
async function unsubscribe(stack: TenantsStack, shop: TenantShop, uri: string): Promise<void> {
  for (const id of await subscriptions(stack, shop, uri)) {
    await stack.merchant(shop, 'POST', 'graphql.json', {
      query: 'mutation ($id: ID!) { webhookSubscriptionDelete(id: $id) { userErrors { message } } }',
      variables: { id },
    });
  }
}

/**
 * The naive peer's way to sync a whole shop: every product sent through its handler as a signed
 * `products/update` of the shop, 4 at a time. Resolves with the deliveries it refused or failed.
 */
async function replayTo(
  peer: ServiceProcess,
  domain: string,
  products: Array<Record<string, unknown>>,
): Promise<number> {
  let failed = 0;
  await forEachLimited(products, 4, async (product) => {
    const body = JSON.stringify(product);
    const response = await fetch(`${peer.url}/webhooks/shopify`, {
      method: 'POST',
      body,
      headers: {
        'content-type': 'application/json',
        'x-shopify-topic': 'products/update',
        'x-shopify-shop-domain': domain,
        'x-shopify-webhook-id': randomUUID(),
        'x-shopify-hmac-sha256': createHmac('sha256', DEFAULT_APP_SECRET).update(body).digest('base64'),
      },
    });
    await response.arrayBuffer();
    if (response.status !== 200) failed++;
  });
  return failed;
}
