import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Clock } from '#lib/clock';
import type { TestAccount } from '#testing/catalog-sandbox';
import type { SandboxOverrides } from '#testing/shopify-sandbox';
import { type ShopMappingState, ShopMappings } from '../../src/index.js';
import { SkuMapRepository } from '../../src/product-sync/sku-map/sku-map.repository.js';
import type { ShopifyProductState } from '../../src/write-back/decide/write-back-state.js';
import type { GraphqlResponse } from '../../src/write-back/shopify/admin-graphql.js';
import { fetchWriteBackState } from '../../src/write-back/shopify/fetch-write-back-state.js';
import { call } from './admin-client.js';
import { type ConnectorHarness, eventually, startConnector } from './connector-harness.js';
import { PushSeams, pushSeamOverrides } from './push-seams.js';
import { type Sandboxes, startSandboxes } from './sandboxes.js';
import { type TestShop, testShop } from './test-shop.js';

const DEMO_MAPPING = fileURLToPath(new URL('../../mappings/demo.yaml', import.meta.url));
export const ADMIN_TOKEN = 'enrichment-e2e-admin-token';

/** A Shopify product with its catalog records and sku map rows, as a sync leaves them. */
export interface MappedProduct {
  productId: string;
  gid: string;
  variantGids: string[];
  parentSku: string;
  variantSkus: string[];
}

/** One Admin API request of the Shopify sandbox's log. */
export interface LoggedRequest {
  operationName: string | null;
  operationType?: string;
  variables: Record<string, unknown> | null;
  outcome: string;
}

/**
 * Test support for the write-back end to end: both sandboxes, a shop of the test's own with the
 * demo mapping, a catalog account, and connectors (replicas share one schema and queue).
 */
export class EnrichmentFixture {
  readonly harnesses: ConnectorHarness[] = [];
  /** The push's test seams, in every connector the fixture starts. */
  readonly pushSeams = new PushSeams();

  private constructor(
    readonly sandboxes: Sandboxes,
    readonly shop: TestShop,
    readonly account: TestAccount,
    private readonly dir: string,
    private readonly mappingFile: string,
    private readonly env: Record<string, string>,
  ) {}

  static async start(
    options: {
      shopify?: SandboxOverrides;
      env?: Record<string, string>;
      /** Rewrites the demo mapping's text (a test's own write-back entries). */
      mapping?: (yaml: string) => string;
    } = {},
  ): Promise<EnrichmentFixture> {
    const sandboxes = await startSandboxes(options.shopify);
    const shop = testShop({ webhookSecrets: [sandboxes.shopify.appSecret] });
    await sandboxes.addShop(shop);
    const account = await sandboxes.account();
    const dir = await mkdtemp(join(tmpdir(), 'connector-enrichment-'));
    const mappingFile = join(dir, 'demo.yaml');
    const demo = (await readFile(DEMO_MAPPING, 'utf8')).replace(/^shop: .*$/m, '');
    await writeFile(mappingFile, options.mapping ? options.mapping(demo) : demo);
    const fixture = new EnrichmentFixture(sandboxes, shop, account, dir, mappingFile, options.env ?? {});
    await fixture.startReplica();
    return fixture;
  }

  get harness(): ConnectorHarness {
    return this.harnesses[0] as ConnectorHarness;
  }

  /** Starts a connector (the first one, or another replica on the same tables and queues). */
  async startReplica(): Promise<ConnectorHarness> {
    const first = this.harnesses[0];
    const harness = await startConnector({
      shops: [this.shop],
      catalogUrl: this.sandboxes.catalog.url,
      catalogApiKey: this.account.apiKey,
      shopifyFetch: this.sandboxes.shopifyFetch,
      overrides: pushSeamOverrides(this.pushSeams),
      // The first one subscribes the shop: the Shopify sandbox's webhooks drive every sync.
      ...(first ? { schema: first.schema } : { publicUrl: true }),
      env: {
        [`CONNECTOR_SHOP_${this.shop.key}_MAPPING_FILE`]: this.mappingFile,
        CONNECTOR_ADMIN_TOKEN: ADMIN_TOKEN,
        CONNECTOR_ENRICHMENT_POLL_INTERVAL_MS: '3600000',
        CONNECTOR_ENRICHMENT_WATCHLIST_INTERVAL_MS: '0',
        CONNECTOR_ENRICHMENT_PUSH_BACKOFF_MS: '50',
        CONNECTOR_ENRICHMENT_LOCK_RETRY_MS: '50',
        CONNECTOR_MAPPING_RECHECK_MS: '100',
        CONNECTOR_CATALOG_RATE_PER_SECOND: '50',
        ...this.env,
      },
    });
    this.harnesses.push(harness);
    await eventually(async () => {
      const state: ShopMappingState = harness.connector.app.get(ShopMappings).state(this.shop.domain);
      return state.status === 'ready';
    });
    if (!first) await eventually(async () => (await this.sandboxes.subscriptions(this.shop)).length === 4);
    return harness;
  }

  /**
   * A product with sizes created by the merchant in Shopify, synced by the connector: its parent
   * and variants in the catalog, its sku map rows live.
   */
  async product(title: string, extra: Record<string, unknown> = {}): Promise<MappedProduct> {
    const created = await this.sandboxes.merchant(this.shop, 'POST', 'products.json', {
      product: {
        title,
        vendor: 'Acme',
        product_type: 'Shirts',
        tags: 'linen',
        metafields_global_description_tag: 'Merchant description',
        options: [{ name: 'Size' }],
        variants: [
          { option1: 'Small', price: '35.00', barcode: '4006381333931' },
          { option1: 'Medium', price: '36.00', barcode: '4006381333948' },
        ],
        ...extra,
      },
    });
    const product = created.body.product as { id: number; variants: Array<{ id: number }> };
    const productId = String(product.id);
    const rows = await this.synced(productId, 1 + product.variants.length);
    const own = rows.find((r) => r.shopifyVariantId === null);
    return {
      productId,
      gid: `gid://shopify/Product/${productId}`,
      variantGids: product.variants.map((v) => `gid://shopify/ProductVariant/${v.id}`),
      parentSku: own?.skuId as string,
      variantSkus: product.variants.map(
        (v) => rows.find((r) => r.shopifyVariantId === String(v.id))?.skuId as string,
      ),
    };
  }

  /** `count` simple products created by the merchant and synced (one record each). */
  async simpleProducts(count: number): Promise<MappedProduct[]> {
    const ids: string[] = [];
    for (let i = 0; i < count; i += 25) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(25, count - i) }, async (_, j) => {
          const created = await this.sandboxes.merchant(this.shop, 'POST', 'products.json', {
            product: {
              title: `Plain tee ${i + j}`,
              vendor: 'Acme',
              product_type: 'Tees',
              variants: [{ price: '10.00', barcode: '4006381333931' }],
            },
          });
          return String((created.body.product as { id: number }).id);
        }),
      );
      ids.push(...batch);
    }
    await this.sandboxes.shopify.sandbox.idle();
    const rows = await eventually(async () => {
      const { rows } = await this.harness.db.query<{ product: string; sku_id: string }>(
        `SELECT shopify_product_id::text AS product, sku_id FROM "${this.harness.schema}".sku_map
          WHERE shop = $1 AND state = 'live' AND shopify_variant_id IS NULL`,
        [this.shop.domain],
      );
      const mine = rows.filter((r) => ids.includes(r.product));
      return mine.length === count && mine;
    }, 180_000);
    const skuOf = new Map(rows.map((r) => [r.product, r.sku_id]));
    return ids.map((productId) => ({
      productId,
      gid: `gid://shopify/Product/${productId}`,
      variantGids: [],
      parentSku: skuOf.get(productId) as string,
      variantSkus: [],
    }));
  }

  /** How many `productUpdate` write-back mutations succeeded, per product gid. */
  async productUpdates(): Promise<Map<string, number>> {
    const answer = await this.sandboxes.shopify.control(
      'GET',
      `shops/${this.shop.domain}/admin-requests?operationType=mutation`,
    );
    const counts = new Map<string, number>();
    for (const r of answer.body.requests as LoggedRequest[]) {
      if (r.operationName !== 'WriteBackProductUpdate' || r.outcome !== 'ok') continue;
      const id = String((r.variables?.product as { id?: string } | undefined)?.id);
      counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    return counts;
  }

  /** Waits until the product's deliveries were handled and its `count` sku map rows are live. */
  async synced(productId: string, count: number) {
    await this.settle(productId);
    const map = this.harness.connector.app.get(SkuMapRepository);
    return eventually(async () => {
      const live = (await map.rowsOfProduct(this.shop.domain, productId)).filter((r) => r.state === 'live');
      return live.length === count && live;
    }, 30_000);
  }

  /** Waits until every webhook of the product was sent and its inbox rows handled. */
  async settle(productId: string): Promise<void> {
    await this.sandboxes.shopify.sandbox.idle();
    await eventually(async () => {
      const rows = await this.harness.inbox(this.shop.domain, productId);
      return rows.length > 0 && rows.every((row) => row.state === 'done');
    }, 30_000);
  }

  /** The product's sync runs (sync records), oldest first, with their catalog calls. */
  async syncRuns(productId: string): Promise<Array<{ reason: string; outcome: string; calls: unknown[] }>> {
    const { rows } = await this.harness.db.query(
      `SELECT reason, outcome, calls FROM "${this.harness.schema}".sync_records
        WHERE shop = $1 AND product_id = $2 ORDER BY id`,
      [this.shop.domain, productId],
    );
    return rows;
  }

  private portal(path: string): string {
    return `/portal/v1/accounts/${this.account.id}${path}`;
  }

  /** An enrichment run of the records in the portal, stepped until it is done. */
  async enrich(skuIds: string[], options: { oneInstant?: boolean; at?: number } = {}): Promise<void> {
    // The sandbox stamps each record as it finishes; stopping its clock gives them one completedAt
    // (`at`: a time in the past, as a catalog whose write became visible late would show).
    const clock = this.sandboxes.catalog.app.get(Clock);
    const now = clock.now.bind(clock);
    if (options.oneInstant || options.at !== undefined) {
      const instant = options.at ?? now();
      clock.now = () => instant;
    }
    try {
      await this.run(skuIds);
    } finally {
      clock.now = now;
    }
  }

  private async run(skuIds: string[]): Promise<void> {
    const portal = this.sandboxes.catalog.portal;
    // One batch: every record of the run finishes at the same instant.
    const run = await portal.post(this.portal('/enrichment/runs'), {
      skuIds,
      mode: 'manual',
      batchSize: skuIds.length,
    });
    if (run.status !== 200) throw new Error(`run: ${JSON.stringify(run.body)}`);
    for (const _ of [1, 2]) await portal.post(this.portal(`/enrichment/runs/${run.body.data.runId}/step`));
  }

  /** A review in the portal. */
  async review(skuId: string, body: { approve?: string[]; reject?: string[] }): Promise<void> {
    const answer = await this.sandboxes.catalog.portal.post(this.portal(`/products/${skuId}/review`), body);
    if (answer.status !== 200) throw new Error(`review: ${JSON.stringify(answer.body)}`);
  }

  /** A portal user's edit of a record. */
  async edit(skuId: string, attributes: Array<{ key: string; value: unknown }>): Promise<void> {
    const answer = await this.sandboxes.catalog.portal.patch(this.portal(`/products/${skuId}`), {
      attributes,
    });
    if (answer.status !== 200) throw new Error(`edit: ${JSON.stringify(answer.body)}`);
  }

  /** A record's attribute value in the catalog. */
  async value(skuId: string, key: string): Promise<unknown> {
    const record = await this.account.api.get(`/v1/products/${skuId}`);
    return (record.body.data.attributes as Array<{ key: string; value: unknown }>).find((a) => a.key === key)
      ?.value;
  }

  /** `POST /admin/enrichment/poll`, then waits until it finished and its push work is done. */
  async poll(harness: ConnectorHarness = this.harness): Promise<Record<string, unknown>> {
    const ask = async () => {
      const queued = await call<{ id: string }>(harness.url, 'POST', '/admin/enrichment/poll', ADMIN_TOKEN);
      if (queued.status !== 200) throw new Error(`poll: ${queued.status} ${queued.text}`);
      return queued.body.id;
    };
    let id = await ask();
    return eventually(async () => {
      const status = await call<{ status: string; pushes: { pending: number } }>(
        harness.url,
        'GET',
        `/admin/enrichment/poll/${id}`,
        ADMIN_TOKEN,
      );
      if (status.body.status === 'failed') throw new Error(`poll failed: ${status.text}`);
      // A poll that held the shop (its catalog breaker open on a loaded machine) polled nothing:
      // another is asked for once it ended.
      if (status.body.status === 'paused') {
        id = await ask();
        return false;
      }
      if (status.body.status !== 'finished' || status.body.pushes.pending > 0) return false;
      // Work a scheduled poll took meanwhile is waited for too.
      const { rows } = await harness.db.query(
        `SELECT 1 FROM "${harness.schema}".enrichment_outbox WHERE shop = $1 AND state = 'pending' LIMIT 1`,
        [this.shop.domain],
      );
      return rows.length === 0 && status.body;
    }, 180_000);
  }

  /** The product's write-back targets as they stand in Shopify. */
  async shopify(gid: string): Promise<ShopifyProductState> {
    const state = await fetchWriteBackState(
      async (query, variables) => {
        const answer = await fetch(`${this.sandboxes.shopify.adminUrl}/graphql.json`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'X-Shopify-Access-Token': this.shop.accessToken },
          body: JSON.stringify({ query, variables }),
        });
        return (await answer.json()) as GraphqlResponse;
      },
      gid,
      this.harness.connector.app.get(ShopMappings).mapping(this.shop.domain)?.writeBack ?? [],
      { sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)), throttleRetries: 20 },
    );
    if (!state) throw new Error(`no product ${gid}`);
    return state;
  }

  /** The connector's write-back mutations of this product (and its variants) in the Shopify log. */
  async writes(product: MappedProduct): Promise<LoggedRequest[]> {
    const answer = await this.sandboxes.shopify.control(
      'GET',
      `shops/${this.shop.domain}/admin-requests?operationType=mutation`,
    );
    const ids = [product.gid, ...product.variantGids].map((id) => `"${id}"`);
    return (answer.body.requests as LoggedRequest[]).filter(
      (r) =>
        r.operationName?.startsWith('WriteBack') &&
        ids.some((id) => JSON.stringify(r.variables ?? {}).includes(id)),
    );
  }

  async close(): Promise<void> {
    for (const harness of this.harnesses.reverse()) await harness.close();
    await this.sandboxes.close();
    await rm(this.dir, { recursive: true, force: true });
  }
}
