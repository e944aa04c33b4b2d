import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import type { TestAccount } from '#testing/catalog-sandbox';
import type { ProductStatusDto } from '../../../apps/connector/src/operations/admin/product-status.dto.js';
import {
  type ConnectorProcess,
  type ConnectorWorld,
  eventually,
  startConnectorProcess,
  startConnectorWorld,
  type WorldShop,
} from './connector-world.js';
import { freePort } from './stack-process.js';

/** A shop of the stack and the catalog account it syncs into. */
export interface StackShop extends WorldShop {
  account: TestAccount;
}

/** A Shopify Admin API mutation of the sandbox's log. */
export interface LoggedMutation {
  operationName: string | null;
  variables: Record<string, unknown> | null;
}

/** A planned write as the tests read it. */
export interface PlannedRow {
  source: string;
  method: string;
  path: string;
  body: Record<string, unknown> | null;
}

/** A product's write-back targets as they stand in Shopify (the product's own metafields). */
export interface ShopifyTargets {
  productId: string;
  title: string;
  descriptionHtml: string;
  seo: { title: string | null; description: string | null };
  tags: string[];
  metafields: Array<{ namespace: string; key: string; value: string }>;
}

/**
 * Test support: the built connector as one real process serving two shops (each with a catalog
 * account of its own, the reference mapping, real signed webhooks, media and the write-back on
 * and fast), both sandboxes in-process for their controls and request logs, and readers of what
 * each shop's run left: over HTTP (admin API, sandboxes) where a route shows it, else the
 * connector's tables in its own schema (planned writes' bodies, image map, snapshots, inbox).
 */
export class TwoShopStack {
  private constructor(
    readonly world: ConnectorWorld,
    readonly connector: ConnectorProcess,
    private readonly db: pg.Pool,
    private readonly schema: string,
    readonly shops: readonly [StackShop, StackShop],
  ) {}

  static async start(): Promise<TwoShopStack> {
    const world = await startConnectorWorld({ catalogEnv: { CATALOG_SANDBOX_UPLOAD_PROCESSING_MS: '100' } });
    const db = new pg.Pool({ connectionString: inject('databaseUrl'), max: 2 });
    const schema = `two_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
    const name = `two${randomBytes(5).toString('hex')}`;
    const second: WorldShop = {
      domain: `${name}.myshopify.com`,
      key: name.toUpperCase(),
      accessToken: `shpat_${randomBytes(12).toString('hex')}`,
    };
    const added = await world.shopify.control('POST', 'shops', second);
    if (added.status >= 300) throw new Error(`could not add shop: ${added.status}`);
    const shops = [
      { ...world.shop, account: world.account },
      { ...second, account: await world.catalog.createAccount() },
    ] as const;
    const port = await freePort();
    const env = world.env({
      CONNECTOR_SHOPS: shops.map((s) => s.domain).join(','),
      [`CONNECTOR_SHOP_${second.key}_ACCESS_TOKEN`]: second.accessToken,
      [`CONNECTOR_SHOP_${second.key}_MAPPING_FILE`]: world.mappingFile,
      ...Object.fromEntries(shops.map((s) => [`CONNECTOR_SHOP_${s.key}_CATALOG_API_KEY`, s.account.apiKey])),
      CONNECTOR_PUBLIC_URL: `http://127.0.0.1:${port}`,
      CONNECTOR_MEDIA_ALLOWED_HOSTS: world.shopify.url,
      CONNECTOR_MEDIA_DELAY_MS: '0',
      CONNECTOR_MEDIA_FIRST_POLL_MS: '100',
      CONNECTOR_MEDIA_POLL_MS: '100',
      CONNECTOR_ENRICHMENT_POLL_INTERVAL_MS: '3600000',
      CONNECTOR_ENRICHMENT_WATCHLIST_INTERVAL_MS: '0',
      CONNECTOR_ENRICHMENT_PUSH_BACKOFF_MS: '50',
      CONNECTOR_ENRICHMENT_LOCK_RETRY_MS: '50',
    });
    const connector = await startConnectorProcess(env, schema, port).catch(async (error: unknown) => {
      await Promise.allSettled([db.end(), world.close()]);
      throw error;
    });
    const stack = new TwoShopStack(world, connector, db, schema, shops);
    for (const shop of shops) await eventually(async () => (await stack.subscriptions(shop)) === 4);
    return stack;
  }

  /** `METHOD path` on the connector's admin API with the world's token. */
  async admin<T>(method: string, path: string, body?: unknown) {
    const response = await fetch(`${this.connector.url}${path}`, {
      method,
      headers: { Authorization: `Bearer ${this.world.adminToken}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, text, body: (text ? JSON.parse(text) : {}) as T };
  }

  async graphql<T>(shop: StackShop, query: string, variables: Record<string, unknown> = {}): Promise<T> {
    const answer = await fetch(`${this.world.shopify.adminUrl}/graphql.json`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Shopify-Access-Token': shop.accessToken },
      body: JSON.stringify({ query, variables }),
    });
    return ((await answer.json()) as { data: T }).data;
  }

  /** The merchant REST API as `shop` (a refusal throws). */
  async merchant(shop: StackShop, method: string, path: string, body?: unknown) {
    const response = await fetch(`${this.world.shopify.adminUrl}/${path}`, {
      method,
      headers: { 'Content-Type': 'application/json', 'X-Shopify-Access-Token': shop.accessToken },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return (text ? JSON.parse(text) : {}) as { product?: { id: number } };
  }

  /** A product created by the merchant: its id. */
  async createProduct(shop: StackShop, product: Record<string, unknown>): Promise<string> {
    return String((await this.merchant(shop, 'POST', 'products.json', { product })).product?.id);
  }

  /** `GET /admin/products/{id}?shop=` (a Shopify product id, supplierSku or skuId). */
  async status(shop: StackShop, id: string): Promise<ProductStatusDto> {
    const path = `/admin/products/${encodeURIComponent(id)}?shop=${shop.domain}`;
    return (await this.admin<ProductStatusDto>('GET', path)).body;
  }

  async mapRow(shop: StackShop, supplierSku: string) {
    return (await this.status(shop, supplierSku)).mapRows?.find((r) => r.supplierSku === supplierSku);
  }

  /** A sku map row's snapshot (no route shows it). */
  async snapshot(shop: StackShop, supplierSku: string): Promise<Record<string, unknown>> {
    const { rows } = await this.db.query<{ snapshot: Record<string, unknown> }>(
      `SELECT snapshot FROM "${this.schema}".sku_map WHERE shop = $1 AND supplier_sku = $2`,
      [shop.domain, supplierSku],
    );
    return rows[0]?.snapshot ?? {};
  }

  /** A product's planned writes with their bodies (the preview shows method and path only). */
  async planned(shop: StackShop, productId: string): Promise<PlannedRow[]> {
    const { rows } = await this.db.query<PlannedRow>(
      `SELECT source, method, path, body FROM "${this.schema}".planned_writes WHERE shop = $1 AND product_id = $2
        ORDER BY source, seq`,
      [shop.domain, productId],
    );
    return rows;
  }

  /** Shopify media id -> catalog fileId, from the shop's image map. */
  async fileIds(shop: StackShop): Promise<Map<string, string>> {
    const { rows } = await this.db.query<{ shopify_media_id: string; file_id: string }>(
      `SELECT shopify_media_id, file_id FROM "${this.schema}".media_image_map WHERE shop = $1`,
      [shop.domain],
    );
    return new Map(rows.map((r) => [r.shopify_media_id, r.file_id]));
  }

  /** Waits until every webhook was sent and the product's inbox rows were handled. */
  async settled(shop: StackShop, productId: string): Promise<void> {
    await this.world.shopify.sandbox.idle();
    await eventually(async () => {
      const { rows } = await this.db.query<{ state: string }>(
        `SELECT state FROM "${this.schema}".inbox WHERE shop = $1 AND product_id = $2`,
        [shop.domain, productId],
      );
      return rows.length > 0 && rows.every((row) => row.state === 'done');
    });
  }

  /** Waits for a media run of the product that ended after `after` (epoch ms), from its status. */
  mediaRun(shop: StackShop, productId: string, after: number) {
    return eventually(async () => {
      const media = (await this.status(shop, productId)).media;
      return media !== null && media !== undefined && Date.parse(media.lastRunAt) > after && media;
    });
  }

  /** The shop's Admin API writes: every mutation but bulk reads and webhook subscriptions. */
  async mutations(shop: StackShop): Promise<LoggedMutation[]> {
    const path = `shops/${shop.domain}/admin-requests?operationType=mutation`;
    return ((await this.world.shopify.control('GET', path)).body.requests as LoggedMutation[]).filter(
      (r) =>
        r.operationName !== 'ConnectorBulkRunQuery' &&
        r.operationName !== 'ConnectorWebhookSubscriptionCreate',
    );
  }

  async subscriptions(shop: StackShop): Promise<number> {
    const query = '{ webhookSubscriptions(first: 50) { nodes { topic } } }';
    return (await this.graphql<{ webhookSubscriptions: { nodes: unknown[] } }>(shop, query))
      .webhookSubscriptions.nodes.length;
  }

  /** The product's id, then its variants' and its images' ids, in Shopify's order. */
  async shopifyIds(shop: StackShop, productId: string): Promise<string[]> {
    type Nodes = { nodes: Array<{ id: string }> };
    const data = await this.graphql<{ product: { variants: Nodes; media: Nodes } }>(
      shop,
      'query($id: ID!) { product(id: $id) { variants(first: 10) { nodes { id } } media(first: 10) { nodes { id } } } }',
      { id: `gid://shopify/Product/${productId}` },
    );
    const tail = (gid: string) => gid.slice(gid.lastIndexOf('/') + 1);
    const nodes = [...data.product.variants.nodes, ...data.product.media.nodes];
    return [productId, ...nodes.map((n) => tail(n.id))];
  }

  /** The product's write-back targets as they stand in Shopify. */
  async shopifyTargets(shop: StackShop, productId: string): Promise<ShopifyTargets> {
    const id = `gid://shopify/Product/${productId}`;
    type Answer = Omit<ShopifyTargets, 'productId' | 'metafields'> & {
      metafields: { nodes: ShopifyTargets['metafields'] };
    };
    const { product } = await this.graphql<{ product: Answer }>(
      shop,
      `query($id: ID!) { product(id: $id) { title descriptionHtml seo { title description } tags
        metafields(first: 50) { nodes { namespace key value } } } }`,
      { id },
    );
    return { ...product, productId: id, metafields: product.metafields.nodes };
  }

  /** An enrichment run of the record in its account's portal, then its review. */
  async enrichAndApprove(account: TestAccount, skuId: string, approve: string[]): Promise<void> {
    const portal = (path: string) => `/portal/v1/accounts/${account.id}${path}`;
    const catalog = this.world.catalog;
    const run = await catalog.portal.post(portal('/enrichment/runs'), {
      skuIds: [skuId],
      mode: 'manual',
      batchSize: 1,
    });
    if (run.status !== 200) throw new Error(`run: ${JSON.stringify(run.body)}`);
    for (const _ of [1, 2]) await catalog.portal.post(portal(`/enrichment/runs/${run.body.data.runId}/step`));
    const review = await catalog.portal.post(portal(`/products/${skuId}/review`), { approve });
    if (review.status !== 200) throw new Error(`review: ${JSON.stringify(review.body)}`);
  }

  /** `POST /admin/enrichment/poll` (every shop), then waits until it finished and its pushes ran. */
  async poll(): Promise<void> {
    const queued = await this.admin<{ id: string }>('POST', '/admin/enrichment/poll');
    if (queued.status !== 200) throw new Error(`poll: ${queued.status} ${queued.text}`);
    await eventually(async () => {
      const path = `/admin/enrichment/poll/${queued.body.id}`;
      const answer = await this.admin<{ status: string; pushes: { pending: number } }>('GET', path);
      return answer.body.status === 'finished' && answer.body.pushes.pending === 0;
    }, 60_000);
  }

  async close(): Promise<void> {
    await this.connector.stop();
    await this.db.query(`DROP SCHEMA IF EXISTS "${this.schema}" CASCADE`).catch(() => undefined);
    await this.db.query(`DROP SCHEMA IF EXISTS "${this.schema}_q" CASCADE`).catch(() => undefined);
    await this.db.end();
    await this.world.close();
  }
}
