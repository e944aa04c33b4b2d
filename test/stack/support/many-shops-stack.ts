import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { type CatalogSandboxHarness, startCatalogSandbox, type TestAccount } from '#testing/catalog-sandbox';
import {
  appConfig,
  DEFAULT_APP_CLIENT_ID,
  type ShopifySandboxHarness,
  startShopifySandbox,
} from '#testing/shopify-sandbox';
import { type ConnectorProcess, startConnectorProcess } from './connector-world.js';
import { freePort, repoRoot } from './stack-process.js';

/** The merchant's browser: `@shopify/shopify-api` refuses OAuth to anything that looks like a bot. */
const BROWSER = {
  'User-Agent':
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36',
};

/** A shop made at run time: the merchant's token (the sandbox's default app) and its own catalog account. */
export interface ManyShop {
  domain: string;
  /** The supplierSku prefix of its records (`<name>:product:<id>`). */
  name: string;
  merchantToken: string;
  account: TestAccount;
}

/**
 * Test support: `count` shops made through the Shopify sandbox's control API, a catalog account
 * each (portal API), and two connector processes (replicas) on one schema and queue namespace
 * with installs open: each shop installs the connector's app through OAuth at the first replica
 * (the public URL, where Shopify delivers) and gets its catalog key through the second's admin API.
 */
export class ManyShopsStack {
  private constructor(
    readonly catalog: CatalogSandboxHarness,
    readonly shopify: ShopifySandboxHarness,
    readonly shops: ManyShop[],
    readonly replicas: [ConnectorProcess, ConnectorProcess],
    readonly appClientId: string,
    private readonly adminToken: string,
    private readonly db: pg.Pool,
    private readonly schema: string,
    private readonly dir: string,
  ) {}

  static async start(options: { shops: number; catalogRate: number }): Promise<ManyShopsStack> {
    const port = await freePort();
    const publicUrl = `http://127.0.0.1:${port}`;
    const app = { clientId: 'many-shops-app', clientSecret: `many-shops-${randomBytes(6).toString('hex')}` };
    const [catalog, shopify] = await Promise.all([
      startCatalogSandbox(),
      startShopifySandbox({
        oauth: { autoApprove: true },
        apps: [
          appConfig(DEFAULT_APP_CLIENT_ID, 'sandbox-app-secret'),
          {
            ...appConfig(app.clientId, app.clientSecret, 'public'),
            redirectUrls: [`${publicUrl}/auth/shopify/callback`],
          },
        ],
      }),
    ]);
    const run = randomBytes(3).toString('hex');
    const shops = await Promise.all(
      Array.from({ length: options.shops }, async (_, i): Promise<ManyShop> => {
        const name = `many-${i}-${run}`;
        const shop = {
          domain: `${name}.myshopify.com`,
          accessToken: `shpat_${randomBytes(12).toString('hex')}`,
        };
        const added = await shopify.control('POST', 'shops', shop);
        if (added.status >= 300) throw new Error(`adding ${shop.domain}: ${added.status}`);
        return {
          domain: shop.domain,
          name,
          merchantToken: shop.accessToken,
          account: await catalog.createAccount(),
        };
      }),
    );
    const dir = await mkdtemp(join(tmpdir(), 'many-shops-'));
    const mappingFile = join(dir, 'mapping.yaml');
    const demo = await readFile(join(repoRoot, 'apps/connector/mappings/demo.yaml'), 'utf8');
    await writeFile(mappingFile, demo.replace(/^shop: .*$/m, ''));
    const backend = inject('queueBackend');
    const adminToken = `admin-${randomBytes(12).toString('hex')}`;
    const env: Record<string, string> = {
      DATABASE_URL: inject('databaseUrl'),
      ...(backend.kind === 'redis' ? { REDIS_URL: backend.url } : {}),
      CONNECTOR_SHOPIFY_INSTALLS: 'open',
      CONNECTOR_SHOPIFY_CLIENT_ID: app.clientId,
      CONNECTOR_SHOPIFY_CLIENT_SECRET: app.clientSecret,
      CONNECTOR_ENCRYPTION_KEYS: randomBytes(32).toString('base64'),
      CONNECTOR_NEW_SHOP_MODE: 'live',
      CONNECTOR_DEFAULT_MAPPING_FILE: mappingFile,
      CONNECTOR_SHOPS_REFRESH_MS: '500',
      CONNECTOR_CATALOG_URL: catalog.url,
      CONNECTOR_SHOPIFY_ADMIN_ORIGIN: shopify.url,
      CONNECTOR_PUBLIC_URL: publicUrl,
      CONNECTOR_ADMIN_TOKEN: adminToken,
      CONNECTOR_SYNC_DEBOUNCE_MS: '0',
      CONNECTOR_SYNC_BACKOFF_MS: '50',
      CONNECTOR_SYNC_LOCK_RETRY_MS: '50',
      CONNECTOR_CATALOG_RATE_PER_SECOND: String(options.catalogRate),
      CONNECTOR_CATALOG_PAUSE_RECHECK_MS: '500',
      CONNECTOR_MEDIA_ENABLED: 'false',
    };
    const schema = `many_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
    const db = new pg.Pool({ connectionString: inject('databaseUrl'), max: 2 });
    const replicas = await Promise.all([
      startConnectorProcess(env, schema, port),
      startConnectorProcess(env, schema),
    ]).catch(async (error: unknown) => {
      await Promise.allSettled([catalog.close(), shopify.close(), db.end()]);
      throw error;
    });
    return new ManyShopsStack(catalog, shopify, shops, replicas, app.clientId, adminToken, db, schema, dir);
  }

  /** `METHOD path` on a replica's admin API; throws on an error status. */
  async admin<T>(replica: ConnectorProcess, method: string, path: string, body?: unknown): Promise<T> {
    const answer = await fetch(`${replica.url}${path}`, {
      method,
      headers: { Authorization: `Bearer ${this.adminToken}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await answer.text();
    if (!answer.ok) throw new Error(`${method} ${path}: ${answer.status} ${text}`);
    return (text ? JSON.parse(text) : {}) as T;
  }

  /** The merchant REST API as the shop; throws on an error status. */
  async merchant(
    shop: ManyShop,
    method: string,
    path: string,
    body?: unknown,
  ): Promise<Record<string, unknown>> {
    const answer = await fetch(`${this.shopify.adminUrl}/${path}`, {
      method,
      headers: { 'Content-Type': 'application/json', 'X-Shopify-Access-Token': shop.merchantToken },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await answer.text();
    if (answer.status >= 300) throw new Error(`${method} ${path} (${shop.domain}): ${answer.status} ${text}`);
    return (text ? JSON.parse(text) : {}) as Record<string, unknown>;
  }

  /** A simple product with a barcode (no mapping gap), made by the merchant: its id. */
  async createProduct(shop: ManyShop, title: string): Promise<number> {
    const answer = await this.merchant(shop, 'POST', 'products.json', {
      product: {
        title,
        vendor: 'Acme',
        product_type: 'T-Shirts',
        variants: [{ price: '19.00', barcode: '4006381333931', sku: title.replaceAll(' ', '-') }],
      },
    });
    return (answer.product as { id: number }).id;
  }

  /** The merchant's browser through the app's install at the first replica (begin, authorize, callback). */
  async install(shop: ManyShop): Promise<void> {
    const begun = await fetch(`${this.replicas[0].url}/auth/shopify?shop=${shop.domain}`, {
      redirect: 'manual',
      headers: BROWSER,
    });
    if (begun.status !== 302) throw new Error(`/auth/shopify (${shop.domain}): ${begun.status}`);
    const cookie = begun.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const approved = await fetch(begun.headers.get('location') as string, {
      redirect: 'manual',
      headers: BROWSER,
    });
    if (approved.status !== 302) throw new Error(`authorize (${shop.domain}): ${approved.status}`);
    const landed = await fetch(approved.headers.get('location') as string, {
      headers: { ...BROWSER, cookie },
    });
    if (landed.status !== 200)
      throw new Error(`callback (${shop.domain}): ${landed.status} ${await landed.text()}`);
  }

  /** A product's own record's `name` in the shop's account, read from the sandbox's store in-process. */
  recordName(shop: ManyShop, productId: number): unknown {
    const store = this.catalog.sandbox.accounts.require(shop.account.id).products;
    const record = store
      .bySupplierSku(`${shop.name}:product:${productId}`)
      .find((r) => r.parentSkuId === null);
    return record?.attributes.get('name')?.value;
  }

  /** How many records the shop's account holds (in-process). */
  records(shop: ManyShop): number {
    return this.catalog.sandbox.accounts.require(shop.account.id).products.size;
  }

  /** Sync jobs a replica ran (its `connector_jobs_total` of kind `sync-product`). */
  async syncJobs(replica: ConnectorProcess): Promise<number> {
    const metrics = await (await fetch(`${replica.url}/metrics`)).text();
    return metrics
      .split('\n')
      .filter((line) => line.startsWith('connector_jobs_total{') && line.includes('kind="sync-product"'))
      .reduce((sum, line) => sum + Number(line.split(' ').at(-1)), 0);
  }

  async close(): Promise<void> {
    await Promise.allSettled(this.replicas.map((replica) => replica.stop()));
    await this.db.query(`DROP SCHEMA IF EXISTS "${this.schema}" CASCADE`).catch(() => undefined);
    await this.db.query(`DROP SCHEMA IF EXISTS "${this.schema}_q" CASCADE`).catch(() => undefined);
    await this.db.end();
    await Promise.allSettled([this.catalog.close(), this.shopify.close()]);
    await rm(this.dir, { recursive: true, force: true });
  }
}
