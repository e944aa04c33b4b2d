import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { inject } from 'vitest';
import type { TestAccount } from '#testing/catalog-sandbox';
import type { SandboxOverrides } from '#testing/shopify-sandbox';
import { type ConnectorHarness, eventually, startConnector } from './connector-harness.js';
import { type Sandboxes, startSandboxes } from './sandboxes.js';
import type { SyncHooks } from './sync-seams.js';
import { type TestShop, testShop } from './test-shop.js';

const DEMO_MAPPING = fileURLToPath(new URL('../../mappings/demo.yaml', import.meta.url));

/** One row of the sku map, as tests read it. */
export interface MapRow {
  shopify_variant_id: string | null;
  kind: string;
  supplier_sku: string;
  sku_id: string | null;
  state: string;
  snapshot: Record<string, string | string[]>;
  gaps: Array<{ attribute: string; values: string[] }>;
  notes: Array<{ code: string; message: string; attribute?: string }>;
}

/** One sync record, as tests read it. */
export interface SyncRecordRow {
  reason: string;
  outcome: string;
  detail: string | null;
  calls: Array<{ method: string; path: string; status: number | null }>;
  events: string[];
}

/** One catalog `/v1` call from the sandbox's request log. */
export interface LoggedCall {
  method: string;
  path: string;
  status: number;
}

/**
 * Test support: both sandboxes, a shop of the test's own subscribed by a connector that syncs it
 * into an account of its own through the reference (demo) mapping, with the PostgreSQL queue or
 * Redis the run uses. The Shopify sandbox's real, signed webhooks drive every sync.
 */
export interface SyncWorld {
  sandboxes: Sandboxes;
  shop: TestShop;
  account: TestAccount;
  harness: ConnectorHarness;
  /** A product created through the merchant API; its id. */
  createProduct(product: Record<string, unknown>): Promise<string>;
  updateProduct(productId: string, product: Record<string, unknown>): Promise<Record<string, unknown>>;
  deleteProduct(productId: string): Promise<void>;
  /** Waits until every delivery of the product was sent and handled. */
  settle(productId: string): Promise<void>;
  mapRows(productId: string): Promise<MapRow[]>;
  syncRecords(productId: string): Promise<SyncRecordRow[]>;
  /** The account's `/v1` calls since `since` (epoch ms), searches included. */
  catalogCalls(since: number): Promise<LoggedCall[]>;
  /** A catalog record (`GET /v1/products/{skuId}` or variants), or null when gone. */
  catalogRecord(skuId: string, kind?: 'products' | 'variants'): Promise<CatalogRecord | null>;
  /** Every record of the account with this supplierSku. */
  recordsWithSupplierSku(supplierSku: string): Promise<CatalogRecord[]>;
  /**
   * Stops the connector and starts another on the same tables and queues, with the mapping
   * edited again by `mapping` (it no longer subscribes: webhooks keep going to the first one).
   */
  restart(mapping?: (yaml: string) => string): Promise<ConnectorHarness>;
  close(): Promise<void>;
}

export interface CatalogRecord {
  skuId: string;
  supplierSku: string;
  attributes: Array<{ key: string; value: unknown }>;
}

export interface SyncWorldOptions {
  env?: Record<string, string | undefined>;
  syncHooks?: Partial<SyncHooks>;
  shopify?: SandboxOverrides;
  /** Edits the reference mapping before the connector reads it. */
  mapping?: (yaml: string) => string;
  /** Webhook subscriptions the connector makes (3 product topics; 6 with collection topics). */
  subscriptions?: number;
  /** The catalog the connector calls, given the sandbox's URL (a test's proxy in front of it); the sandbox by default. */
  catalogUrl?: (sandboxUrl: string) => Promise<string>;
}

export async function startSyncWorld(options: SyncWorldOptions = {}): Promise<SyncWorld> {
  const sandboxes = await startSandboxes(options.shopify);
  const shop = testShop({ webhookSecrets: [sandboxes.shopify.appSecret] });
  await sandboxes.addShop(shop);
  const account = await sandboxes.account();
  const dir = await mkdtemp(join(tmpdir(), 'connector-sync-'));
  const mappingFile = join(dir, 'mapping.yaml');
  const demo = (await readFile(DEMO_MAPPING, 'utf8')).replace(/^shop: .*$/m, '');
  await writeFile(mappingFile, options.mapping ? options.mapping(demo) : demo);
  const schema = `w_${randomBytes(6).toString('hex')}`;
  const catalogUrl = options.catalogUrl
    ? await options.catalogUrl(sandboxes.catalog.url)
    : sandboxes.catalog.url;
  const start = (publicUrl: boolean) =>
    startConnector({
      shops: [shop],
      catalogUrl,
      catalogApiKey: account.apiKey,
      shopifyFetch: sandboxes.shopifyFetch,
      publicUrl,
      schema,
      syncHooks: options.syncHooks,
      env: {
        [`CONNECTOR_SHOP_${shop.key}_MAPPING_FILE`]: mappingFile,
        CONNECTOR_CATALOG_RATE_PER_SECOND: '50',
        ...options.env,
      },
    });
  let harness = await start(true);
  await eventually(async () => (await sandboxes.subscriptions(shop)).length === (options.subscriptions ?? 4));
  const q = `"${schema}"`;

  const world: SyncWorld = {
    sandboxes,
    shop,
    account,
    get harness() {
      return harness;
    },
    async createProduct(product) {
      const created = await sandboxes.merchant(shop, 'POST', 'products.json', { product });
      if (created.status !== 201 && created.status !== 200)
        throw new Error(`create refused: ${JSON.stringify(created.body)}`);
      return String((created.body.product as { id: number }).id);
    },
    async updateProduct(productId, product) {
      const updated = await sandboxes.merchant(shop, 'PUT', `products/${productId}.json`, { product });
      if (updated.status !== 200) throw new Error(`update refused: ${JSON.stringify(updated.body)}`);
      return updated.body.product as Record<string, unknown>;
    },
    async deleteProduct(productId) {
      const deleted = await sandboxes.merchant(shop, 'DELETE', `products/${productId}.json`);
      if (deleted.status !== 200) throw new Error(`delete refused: ${JSON.stringify(deleted.body)}`);
    },
    async settle(productId) {
      await sandboxes.shopify.sandbox.idle();
      await eventually(async () => {
        const rows = await harness.inbox(shop.domain, productId);
        return rows.length > 0 && rows.every((row) => row.state === 'done');
      }, 30_000);
    },
    async mapRows(productId) {
      const { rows } = await harness.db.query<MapRow>(
        `SELECT shopify_variant_id::text, kind, supplier_sku, sku_id, state, snapshot, gaps, notes
           FROM ${q}.sku_map WHERE shop = $1 AND shopify_product_id = $2
          ORDER BY shopify_variant_id NULLS FIRST, id`,
        [shop.domain, productId],
      );
      return rows;
    },
    async syncRecords(productId) {
      const { rows } = await harness.db.query<SyncRecordRow>(
        `SELECT reason, outcome, detail, calls, events FROM ${q}.sync_records
          WHERE shop = $1 AND product_id = $2 ORDER BY id`,
        [shop.domain, productId],
      );
      return rows;
    },
    async catalogCalls(since) {
      const entries = await account.controls.requests({ since });
      return entries.map((e) => ({ method: e.method, path: e.path, status: e.status }));
    },
    async catalogRecord(skuId, kind = 'products') {
      const response = await account.api.get(`/v1/${kind}/${skuId}`);
      if (response.status === 404) return null;
      if (response.status !== 200) throw new Error(`GET ${skuId}: ${response.status}`);
      return (response.body as { data: CatalogRecord }).data;
    },
    async recordsWithSupplierSku(supplierSku) {
      const response = await account.api.post('/v1/products/search', {
        filter: { supplierSku: { $eq: supplierSku } },
        pagination: { offset: 0, limit: 100 },
      });
      return (response.body as { data: { products: CatalogRecord[] } }).data.products;
    },
    async restart(edit) {
      await harness.close();
      const demoNow = (await readFile(DEMO_MAPPING, 'utf8')).replace(/^shop: .*$/m, '');
      const base = options.mapping ? options.mapping(demoNow) : demoNow;
      await writeFile(mappingFile, edit ? edit(base) : base);
      harness = await start(false);
      return harness;
    },
    async close() {
      const pool = new pg.Pool({ connectionString: inject('databaseUrl'), max: 1 });
      await harness.close();
      await sandboxes.close();
      await pool.query(`DROP SCHEMA IF EXISTS ${q} CASCADE`).catch(() => undefined);
      await pool.query(`DROP SCHEMA IF EXISTS "${schema}_q" CASCADE`).catch(() => undefined);
      await pool.end();
      await rm(dir, { recursive: true, force: true });
    },
  };
  return world;
}

/** The value of an attribute of a catalog record (undefined when absent). */
export function attribute(record: CatalogRecord | null, key: string): unknown {
  return record?.attributes.find((a) => a.key === key)?.value;
}

/** Only the writes (POST, PATCH, DELETE, searches excluded) of a list of calls. */
export function writes(calls: LoggedCall[]): string[] {
  return calls
    .filter((c) => c.method !== 'GET' && !c.path.endsWith('/search'))
    .map((c) => `${c.method} ${c.path.replace(/^(\/v1\/(?:products|variants))\/[^/]+$/, '$1/{skuId}')}`);
}
