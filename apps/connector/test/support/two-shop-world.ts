import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type CatalogSandboxHarness, startCatalogSandbox, type TestAccount } from '#testing/catalog-sandbox';
import { type ShopifySandboxHarness, sandboxFetch, startShopifySandbox } from '#testing/shopify-sandbox';
import { ShopMappings } from '../../src/index.js';
import type { ShopifyProductState } from '../../src/write-back/decide/write-back-state.js';
import type { GraphqlResponse } from '../../src/write-back/shopify/admin-graphql.js';
import { fetchWriteBackState } from '../../src/write-back/shopify/fetch-write-back-state.js';
import { call } from './admin-client.js';
import { type ConnectorHarness, eventually, startConnector } from './connector-harness.js';
import { type TestShop, testShop } from './test-shop.js';
import { WorldTables } from './world-tables.js';

const DEMO_MAPPING = fileURLToPath(new URL('../../mappings/demo.yaml', import.meta.url));

/** One shop of the world and the catalog account it syncs into. */
export interface WorldShop {
  name: string;
  shop: TestShop;
  account: TestAccount;
}

/** A Shopify Admin API mutation of the sandbox's log. */
export interface LoggedMutation {
  operationName: string | null;
  variables: Record<string, unknown> | null;
}

/**
 * Test support: both sandboxes as real servers, several shops (each with a catalog account of
 * its own, the reference mapping, real signed webhooks) served by one connector with media and
 * the write-back on and fast, and readers of what each shop's run left: Shopify mutations and
 * write-back targets here, the connector's tables (sku map, planned writes, media status, image
 * map) in `tables` (`WorldTables`).
 */
export class TwoShopWorld {
  /** What each shop's run left in the connector's tables. */
  readonly tables: WorldTables;

  private constructor(
    readonly catalog: CatalogSandboxHarness,
    readonly shopify: ShopifySandboxHarness,
    readonly harness: ConnectorHarness,
    private readonly shops: Map<string, WorldShop>,
    private readonly dir: string,
    /** The admin token of the world's connector. */
    readonly token: string,
  ) {
    this.tables = new WorldTables(harness);
  }

  static async start(names: readonly string[]): Promise<TwoShopWorld> {
    const [catalog, shopify] = await Promise.all([
      startCatalogSandbox({ env: { CATALOG_SANDBOX_UPLOAD_PROCESSING_MS: '100' } }),
      startShopifySandbox(),
    ]);
    const dir = await mkdtemp(join(tmpdir(), 'connector-two-shops-'));
    const mappingFile = join(dir, 'mapping.yaml');
    await writeFile(mappingFile, (await readFile(DEMO_MAPPING, 'utf8')).replace(/^shop: .*$/m, ''));
    const shops = new Map<string, WorldShop>();
    for (const name of names) {
      const shop = testShop({ webhookSecrets: [shopify.appSecret] });
      const added = await shopify.control('POST', 'shops', {
        domain: shop.domain,
        accessToken: shop.accessToken,
      });
      if (added.status >= 300) throw new Error(`could not add shop: ${JSON.stringify(added.body)}`);
      shops.set(name, { name, shop, account: await catalog.createAccount() });
    }
    const all = [...shops.values()];
    const token = `world-${randomBytes(8).toString('hex')}`;
    const harness = await startConnector({
      shops: all.map((s) => s.shop),
      catalogUrl: catalog.url,
      catalogApiKey: all[0]?.account.apiKey ?? '',
      shopifyFetch: sandboxFetch(shopify.url),
      publicUrl: true,
      env: {
        ...Object.fromEntries(
          all.flatMap((s) => [
            [`CONNECTOR_SHOP_${s.shop.key}_CATALOG_API_KEY`, s.account.apiKey],
            [`CONNECTOR_SHOP_${s.shop.key}_MAPPING_FILE`, mappingFile],
          ]),
        ),
        CONNECTOR_ADMIN_TOKEN: token,
        CONNECTOR_MEDIA_ALLOWED_HOSTS: shopify.url,
        CONNECTOR_MEDIA_DELAY_MS: '0',
        CONNECTOR_MEDIA_FIRST_POLL_MS: '100',
        CONNECTOR_MEDIA_POLL_MS: '100',
        CONNECTOR_ENRICHMENT_POLL_INTERVAL_MS: '3600000',
        CONNECTOR_ENRICHMENT_WATCHLIST_INTERVAL_MS: '0',
        CONNECTOR_ENRICHMENT_PUSH_BACKOFF_MS: '50',
        CONNECTOR_ENRICHMENT_LOCK_RETRY_MS: '50',
        CONNECTOR_CATALOG_RATE_PER_SECOND: '50',
      },
    });
    const world = new TwoShopWorld(catalog, shopify, harness, shops, dir, token);
    for (const { shop } of all) {
      await eventually(
        async () => harness.connector.app.get(ShopMappings).state(shop.domain).status === 'ready',
      );
      await eventually(async () => (await world.subscriptions(shop)).length === 4, 30_000);
    }
    return world;
  }

  shop(name: string): WorldShop {
    const entry = this.shops.get(name);
    if (!entry) throw new Error(`no shop named ${name}`);
    return entry;
  }

  /** `METHOD path` on the connector's admin API with the world's token. */
  admin<T = Record<string, unknown>>(method: string, path: string, body?: unknown) {
    return call<T>(this.harness.url, method, path, this.token, body);
  }

  async graphql(
    shop: TestShop,
    query: string,
    variables: Record<string, unknown> = {},
  ): Promise<GraphqlResponse> {
    const answer = await fetch(`${this.shopify.adminUrl}/graphql.json`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Shopify-Access-Token': shop.accessToken },
      body: JSON.stringify({ query, variables }),
    });
    return (await answer.json()) as GraphqlResponse;
  }

  async subscriptions(shop: TestShop): Promise<unknown[]> {
    const data = (await this.graphql(shop, '{ webhookSubscriptions(first: 50) { nodes { topic } } }'))
      .data as {
      webhookSubscriptions: { nodes: unknown[] };
    };
    return data.webhookSubscriptions.nodes;
  }

  /** The merchant REST API as `shop` (a refusal throws). */
  async merchant(
    shop: TestShop,
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ product?: { id: number } }> {
    const response = await fetch(`${this.shopify.adminUrl}/${path}`, {
      method,
      headers: { 'Content-Type': 'application/json', 'X-Shopify-Access-Token': shop.accessToken },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return (text ? JSON.parse(text) : {}) as { product?: { id: number } };
  }

  /** A product created by the merchant: its id. */
  async createProduct(shop: TestShop, product: Record<string, unknown>): Promise<string> {
    return String((await this.merchant(shop, 'POST', 'products.json', { product })).product?.id);
  }

  /** Waits until every webhook was sent and the product's inbox rows were handled. */
  async settled(shop: TestShop, productId: string): Promise<void> {
    await this.shopify.sandbox.idle();
    await eventually(async () => {
      const rows = await this.harness.inbox(shop.domain, productId);
      return rows.length > 0 && rows.every((row) => row.state === 'done');
    }, 30_000);
  }

  /** The shop's Admin API writes: every mutation but bulk reads and webhook subscriptions. */
  async mutations(shop: TestShop): Promise<LoggedMutation[]> {
    const answer = await this.shopify.control(
      'GET',
      `shops/${shop.domain}/admin-requests?operationType=mutation`,
    );
    return (answer.body.requests as LoggedMutation[]).filter(
      (r) =>
        r.operationName !== 'ConnectorBulkRunQuery' &&
        r.operationName !== 'ConnectorWebhookSubscriptionCreate',
    );
  }

  /** An enrichment run of the record in its account's portal, then its review. */
  async enrichAndApprove(account: TestAccount, skuId: string, approve: string[]): Promise<void> {
    const portal = (path: string) => `/portal/v1/accounts/${account.id}${path}`;
    const run = await this.catalog.portal.post(portal('/enrichment/runs'), {
      skuIds: [skuId],
      mode: 'manual',
      batchSize: 1,
    });
    if (run.status !== 200) throw new Error(`run: ${JSON.stringify(run.body)}`);
    for (const _ of [1, 2])
      await this.catalog.portal.post(portal(`/enrichment/runs/${run.body.data.runId}/step`));
    const review = await this.catalog.portal.post(portal(`/products/${skuId}/review`), { approve });
    if (review.status !== 200) throw new Error(`review: ${JSON.stringify(review.body)}`);
  }

  /** `POST /admin/enrichment/poll` (every shop), then waits until it finished and its pushes ran. */
  async poll(): Promise<void> {
    const queued = await this.admin<{ id: string }>('POST', '/admin/enrichment/poll');
    if (queued.status !== 200) throw new Error(`poll: ${queued.status} ${queued.text}`);
    await eventually(async () => {
      const status = await this.admin<{ status: string; pushes: { pending: number } }>(
        'GET',
        `/admin/enrichment/poll/${queued.body.id}`,
      );
      return status.body.status === 'finished' && status.body.pushes.pending === 0;
    }, 60_000);
  }

  /** The product's id, then its variants' and its images' ids, in Shopify's order. */
  async shopifyIds(shop: TestShop, productId: string): Promise<string[]> {
    const data = (
      await this.graphql(
        shop,
        `query($id: ID!) { product(id: $id) { variants(first: 10) { nodes { id } } media(first: 10) { nodes { id } } } }`,
        { id: `gid://shopify/Product/${productId}` },
      )
    ).data as {
      product: { variants: { nodes: Array<{ id: string }> }; media: { nodes: Array<{ id: string }> } };
    };
    const tail = (gid: string) => gid.slice(gid.lastIndexOf('/') + 1);
    return [
      productId,
      ...data.product.variants.nodes.map((n) => tail(n.id)),
      ...data.product.media.nodes.map((n) => tail(n.id)),
    ];
  }

  /** The product's write-back targets as they stand in Shopify. */
  async shopifyState(shop: TestShop, productId: string): Promise<ShopifyProductState> {
    const targets = this.harness.connector.app.get(ShopMappings).mapping(shop.domain)?.writeBack ?? [];
    const state = await fetchWriteBackState(
      (query, variables) => this.graphql(shop, query, variables),
      `gid://shopify/Product/${productId}`,
      targets,
      { sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)), throttleRetries: 20 },
    );
    if (!state) throw new Error(`no product ${productId}`);
    return state;
  }

  async close(): Promise<void> {
    await this.harness.close();
    await Promise.allSettled([this.catalog.close(), this.shopify.close()]);
    await rm(this.dir, { recursive: true, force: true });
  }
}
