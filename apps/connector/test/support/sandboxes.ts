import { type CatalogSandboxHarness, startCatalogSandbox, type TestAccount } from '#testing/catalog-sandbox';
import {
  type SandboxOverrides,
  type ShopifySandboxHarness,
  sandboxFetch,
  startShopifySandbox,
} from '#testing/shopify-sandbox';
import type { TestShop } from './test-shop.js';

/** Both sandboxes in-process, plus helpers to act as a test's own shop and account. */
export interface Sandboxes {
  catalog: CatalogSandboxHarness;
  shopify: ShopifySandboxHarness;
  /** `fetch` that sends `https://<shop>.myshopify.com` to the Shopify sandbox. */
  shopifyFetch: typeof fetch;
  /** Adds the shop to the Shopify sandbox (its token picks it). */
  addShop(shop: TestShop): Promise<void>;
  /** A catalog account of the test's own. */
  account(): Promise<TestAccount>;
  /** The merchant REST API, as `shop`. */
  merchant(
    shop: TestShop,
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: Record<string, unknown> }>;
  /** The shop's webhook subscriptions in the Shopify sandbox. */
  subscriptions(shop: TestShop): Promise<Array<{ topic: string; uri: string }>>;
  /** The shop's Admin API request log in the Shopify sandbox. */
  adminRequests(shop: TestShop): Promise<AdminRequest[]>;
  close(): Promise<void>;
}

export interface AdminRequest {
  api: string;
  operationName: string | null;
  variables: Record<string, unknown> | null;
  outcome: string;
}

/** Starts both sandboxes, faithful by default; a test asks for a Shopify kindness by name. */
export async function startSandboxes(shopifyOverrides: SandboxOverrides = {}): Promise<Sandboxes> {
  const [catalog, shopify] = await Promise.all([
    startCatalogSandbox(),
    startShopifySandbox(shopifyOverrides),
  ]);
  const call = async (url: string, method: string, headers: Record<string, string>, body?: unknown) => {
    const response = await fetch(url, {
      method,
      headers: { 'Content-Type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : {}) as Record<string, unknown> };
  };
  return {
    catalog,
    shopify,
    shopifyFetch: sandboxFetch(shopify.url),
    async addShop(shop) {
      const answer = await shopify.control('POST', 'shops', {
        domain: shop.domain,
        accessToken: shop.accessToken,
      });
      if (answer.status >= 300)
        throw new Error(`could not add shop: ${answer.status} ${JSON.stringify(answer.body)}`);
    },
    account: () => catalog.createAccount(),
    merchant: (shop, method, path, body) =>
      call(`${shopify.adminUrl}/${path}`, method, { 'X-Shopify-Access-Token': shop.accessToken }, body),
    async subscriptions(shop) {
      const answer = await call(
        `${shopify.adminUrl}/graphql.json`,
        'POST',
        { 'X-Shopify-Access-Token': shop.accessToken },
        { query: '{ webhookSubscriptions(first: 50) { nodes { topic uri } } }' },
      );
      const data = answer.body.data as {
        webhookSubscriptions: { nodes: Array<{ topic: string; uri: string }> };
      };
      return data.webhookSubscriptions.nodes;
    },
    async adminRequests(shop) {
      const answer = await shopify.control('GET', `shops/${shop.domain}/admin-requests`);
      const body = answer.body as unknown as AdminRequest[] | { requests?: AdminRequest[] };
      return Array.isArray(body) ? body : (body.requests ?? []);
    },
    async close() {
      await Promise.allSettled([catalog.close(), shopify.close()]);
    },
  };
}

/** How many times the connector read this product through the canonical query. */
export function productReads(requests: AdminRequest[], productId: string): number {
  return requests.filter(
    (r) => r.operationName === 'CanonicalProduct' && r.variables?.id === `gid://shopify/Product/${productId}`,
  ).length;
}
