import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { uniqueId } from '#lib/testing';
import {
  type CatalogSandboxHarness,
  type RequestLogEntry,
  startCatalogSandbox,
  type TestAccount,
} from '#testing/catalog-sandbox';
import {
  type SandboxOverrides,
  type ShopifySandboxHarness,
  sandboxFetch,
  startShopifySandbox,
} from '#testing/shopify-sandbox';
import { type ConnectorHarness, eventually, startConnector } from './connector-harness.js';
import { productUpdateBody, type TestShop, testShop } from './test-shop.js';

const DEMO_MAPPING = fileURLToPath(new URL('../../mappings/demo.yaml', import.meta.url));

/** A shop of one test and the catalog account it syncs into (its request log is the test's). */
export interface MediaShop {
  shop: TestShop;
  account: TestAccount;
}

/** A Shopify product as the merchant REST API answers it. */
export interface ShopifyProduct {
  id: number;
  title: string;
  updated_at: string;
  images: Array<{ id: number; src: string }>;
}

/** A product's media status row (`media_product_status`). */
export interface MediaStatusRow {
  last_run_at: Date;
  images: number;
  uploads: number;
  writes: number;
  notes: Array<{ code: string }>;
  image_failures: Array<{ mediaId: string; code: string }>;
  foreign_gallery_replaced_at: Date | null;
}

/** A `sync-media` row of the failures table. */
export interface MediaFailureRow {
  id: string;
  subject_key: string;
  error_code: string;
  error_message: string;
  retryable: boolean;
  state: string;
}

export interface MediaWorldOptions {
  /** One shop and account per name. */
  shops: readonly string[];
  /** The catalog sandbox's processing time per upload. Default 300 ms. */
  processingMs?: number;
  shopify?: SandboxOverrides;
  /** Extra connector variables (they win over the world's). */
  env?: Record<string, string>;
}

/**
 * Test support for media: both sandboxes (short upload processing), a connector syncing every
 * shop through the reference mapping (so the sync engine creates the records) with its media
 * job's polls scaled down and the Shopify sandbox's origin as the image allowlist, and readers
 * of the media tables. Syncs are driven by signed products/update deliveries.
 */
export interface MediaWorld {
  catalog: CatalogSandboxHarness;
  shopify: ShopifySandboxHarness;
  harness: ConnectorHarness;
  shop(name: string): MediaShop;
  merchant(
    shop: TestShop,
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; product: ShopifyProduct }>;
  /** A simple Shopify product with these images (not synced yet). */
  createProduct(shop: TestShop, images: string[]): Promise<{ productId: string; product: ShopifyProduct }>;
  /** Delivers a products/update for the product as Shopify has it now; resolves once its next media run ended. */
  syncAndWaitForMedia(shop: TestShop, productId: string): Promise<MediaStatusRow>;
  /** The product's one live record in the sku map. */
  record(shop: TestShop, productId: string): Promise<{ skuId: string; supplierSku: string }>;
  mediaStatus(shop: TestShop, productId: string): Promise<MediaStatusRow | undefined>;
  mediaFailures(shop: TestShop): Promise<MediaFailureRow[]>;
  /** The Shopify images' catalog fileIds (from the image map), in Shopify's current order. */
  fileIdsInShopifyOrder(shop: TestShop, productId: string): Promise<string[]>;
  /** A catalog record's `media` value. */
  catalogMedia(account: TestAccount, skuId: string): Promise<unknown>;
  /** The catalog calls the sync engine made for the product (its sync records), as `METHOD path`. */
  engineCalls(shop: TestShop, productId: string): Promise<string[]>;
  close(): Promise<void>;
}

export async function startMediaWorld(options: MediaWorldOptions): Promise<MediaWorld> {
  const dir = await mkdtemp(join(tmpdir(), 'connector-media-'));
  const mappingFile = join(dir, 'mapping.yaml');
  await writeFile(mappingFile, (await readFile(DEMO_MAPPING, 'utf8')).replace(/^shop: .*$/m, ''));
  const [catalog, shopify] = await Promise.all([
    startCatalogSandbox({
      env: { CATALOG_SANDBOX_UPLOAD_PROCESSING_MS: String(options.processingMs ?? 300) },
    }),
    startShopifySandbox(options.shopify),
  ]);
  const shops = new Map<string, MediaShop>();
  for (const name of options.shops) {
    const shop = testShop();
    const added = await shopify.control('POST', 'shops', {
      domain: shop.domain,
      accessToken: shop.accessToken,
    });
    if (added.status >= 300) throw new Error(`could not add shop: ${JSON.stringify(added.body)}`);
    shops.set(name, { shop, account: await catalog.createAccount() });
  }
  const all = [...shops.values()];
  const harness = await startConnector({
    shops: all.map((s) => s.shop),
    catalogUrl: catalog.url,
    catalogApiKey: all[0]?.account.apiKey ?? '',
    shopifyFetch: sandboxFetch(shopify.url),
    env: {
      ...Object.fromEntries(
        all.flatMap((s) => [
          [`CONNECTOR_SHOP_${s.shop.key}_CATALOG_API_KEY`, s.account.apiKey],
          [`CONNECTOR_SHOP_${s.shop.key}_MAPPING_FILE`, mappingFile],
        ]),
      ),
      CONNECTOR_MEDIA_ALLOWED_HOSTS: shopify.url,
      CONNECTOR_MEDIA_DELAY_MS: '0',
      CONNECTOR_MEDIA_FIRST_POLL_MS: '250',
      CONNECTOR_MEDIA_POLL_MS: '100',
      CONNECTOR_MEDIA_BACKOFF_MS: '100',
      CONNECTOR_MEDIA_RETRY_LATER_MS: '200',
      CONNECTOR_CATALOG_RATE_PER_SECOND: '50',
      CONNECTOR_CATALOG_RATE_BURST: '10',
      ...options.env,
    },
  });
  const q = `"${harness.schema}"`;

  const merchant: MediaWorld['merchant'] = async (shop, method, path, body) => {
    const response = await fetch(`${shopify.adminUrl}/${path}`, {
      method,
      headers: { 'Content-Type': 'application/json', 'X-Shopify-Access-Token': shop.accessToken },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return {
      status: response.status,
      product: ((await response.json()) as { product: ShopifyProduct }).product,
    };
  };
  const mediaStatus: MediaWorld['mediaStatus'] = async (shop, productId) => {
    const { rows } = await harness.db.query<MediaStatusRow>(
      `SELECT last_run_at, images, uploads, writes, notes, image_failures, foreign_gallery_replaced_at
         FROM ${q}.media_product_status WHERE shop = $1 AND shopify_product_id = $2`,
      [shop.domain, productId],
    );
    return rows[0];
  };

  return {
    catalog,
    shopify,
    harness,
    shop(name) {
      const entry = shops.get(name);
      if (!entry) throw new Error(`no shop named ${name}`);
      return entry;
    },
    merchant,
    async createProduct(shop, images) {
      const title = uniqueId('Mug');
      const created = await merchant(shop, 'POST', 'products.json', {
        product: {
          title,
          vendor: 'Acme',
          product_type: 'Mugs',
          variants: [{ price: '12.00', sku: `${title}-1`, barcode: '4006381333931' }],
          images: images.map((n) => ({ src: `https://example.com/${n}.jpg`, alt: n })),
        },
      });
      if (created.status !== 201) throw new Error(`create refused: ${created.status}`);
      return { productId: String(created.product.id), product: created.product };
    },
    async syncAndWaitForMedia(shop, productId) {
      const before = await mediaStatus(shop, productId);
      const current = await merchant(shop, 'GET', `products/${productId}.json`);
      const delivered = await harness.deliver({
        shop,
        body: productUpdateBody(productId, current.product.updated_at),
      });
      if (delivered.status !== 200) throw new Error(`delivery refused: ${delivered.status}`);
      return eventually(async () => {
        const status = await mediaStatus(shop, productId);
        return (
          status !== undefined && status.last_run_at.getTime() !== before?.last_run_at.getTime() && status
        );
      }, 30_000);
    },
    async record(shop, productId) {
      const { rows } = await harness.db.query<{ sku_id: string; supplier_sku: string }>(
        `SELECT sku_id, supplier_sku FROM ${q}.sku_map WHERE shop = $1 AND shopify_product_id = $2 AND state = 'live'`,
        [shop.domain, productId],
      );
      const [row] = rows;
      if (rows.length !== 1 || !row) throw new Error(`expected one live record, found ${rows.length}`);
      return { skuId: row.sku_id, supplierSku: row.supplier_sku };
    },
    mediaStatus,
    async mediaFailures(shop) {
      const { rows } = await harness.db.query<MediaFailureRow>(
        `SELECT id::text, subject_key, error_code, error_message, retryable, state FROM ${q}.failures
          WHERE shop = $1 AND job_kind = 'sync-media' ORDER BY id`,
        [shop.domain],
      );
      return rows;
    },
    async fileIdsInShopifyOrder(shop, productId) {
      const response = await fetch(`${shopify.adminUrl}/graphql.json`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Shopify-Access-Token': shop.accessToken },
        body: JSON.stringify({
          query: `{ product(id: "gid://shopify/Product/${productId}") { media(first: 50) { nodes { id } } } }`,
        }),
      });
      const body = (await response.json()) as {
        data?: { product: { media: { nodes: Array<{ id: string }> } } };
      };
      const ids = body.data?.product.media.nodes.map((n) => n.id) ?? [];
      if (ids.length === 0) throw new Error(`product ${productId} has no media in Shopify`);
      const { rows } = await harness.db.query<{ shopify_media_id: string; file_id: string }>(
        `SELECT shopify_media_id, file_id FROM ${q}.media_image_map WHERE shop = $1`,
        [shop.domain],
      );
      return ids.map((id) => rows.find((r) => r.shopify_media_id === id)?.file_id ?? `missing ${id}`);
    },
    async catalogMedia(account, skuId) {
      const res = await account.api.get(`/v1/products/${skuId}`).expect(200);
      return (res.body.data.attributes as Array<{ key: string; value: unknown }>).find(
        (a) => a.key === 'media',
      )?.value;
    },
    async engineCalls(shop, productId) {
      const { rows } = await harness.db.query<{ calls: Array<{ method: string; path: string }> }>(
        `SELECT calls FROM ${q}.sync_records WHERE shop = $1 AND product_id = $2 ORDER BY id`,
        [shop.domain, productId],
      );
      return rows.flatMap((r) => r.calls.map((c) => `${c.method} ${c.path}`));
    },
    async close() {
      await harness.close();
      await Promise.allSettled([catalog.close(), shopify.close()]);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The media job's calls in a request log: uploads, and the record's gallery read and PATCH, less
 * the sync engine's own calls on the record after its first `engineBefore` (the account's other
 * calls, such as the mapping check at boot, are not the product's).
 */
export function mediaCallsIn(
  log: RequestLogEntry[],
  skuId: string,
  engine: string[],
  engineBefore: number,
): RequestLogEntry[] {
  const left = [...engine.slice(engineBefore)];
  return log.filter((entry) => {
    if (!entry.path.startsWith('/v1/upload/') && entry.path !== `/v1/products/${skuId}`) return false;
    const i = left.indexOf(`${entry.method} ${entry.path}`);
    if (i < 0) return true;
    left.splice(i, 1);
    return false;
  });
}

/** Media calls by kind. */
export function countMediaCalls(log: RequestLogEntry[]) {
  const n = (path: string, method?: string) =>
    log.filter((r) => r.path.startsWith(path) && (!method || r.method === method)).length;
  return {
    prepare: n('/v1/upload/prepare'),
    status: n('/v1/upload/status'),
    get: n('/v1/products/', 'GET'),
    patch: n('/v1/products/', 'PATCH'),
    total: log.length,
  };
}
