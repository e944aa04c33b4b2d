// The stack of `tenants`: many shops made at run time in the Shopify sandbox (its control API),
// one catalog account each (the catalog sandbox's portal API), and the connector in its own
// process taking installs (`CONNECTOR_SHOPIFY_INSTALLS=open`): every shop joins through the
// OAuth flow, as a merchant's browser goes through it, and gets its catalog key through the
// admin API, as an operator sets it.
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type pg from 'pg';
import { type LocalPostgres, startLocalPostgres } from '#lib/local-postgres';
import { type CatalogSandboxHarness, startCatalogSandbox, type TestAccount } from '#testing/catalog-sandbox';
import {
  appConfig,
  DEFAULT_APP_CLIENT_ID,
  type ShopifySandboxHarness,
  startShopifySandbox,
} from '#testing/shopify-sandbox';
import {
  benchSchema,
  CONNECTOR_NODE_ARGS,
  CONNECTOR_SCRIPT,
  connectorEnv,
  demoMapping,
  tuning,
  waitFor,
} from './bench-stack.js';
import { onFreePort, type ServiceProcess, startService } from './child-process.js';
import { BENCH_ADMIN_TOKEN } from './resync.js';

/** The connector's app in the Shopify sandbox (public: authorization code only); the default app is the merchant's. */
const APP = {
  clientId: 'tenants-connector-app',
  clientSecret: `tenants-app-secret-${randomBytes(6).toString('hex')}`,
};
/** The merchant's browser: `@shopify/shopify-api` refuses OAuth to anything that looks like a bot. */
const BROWSER = {
  'User-Agent':
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36',
};

/** One shop of the stack: its domain, the merchant's token (the default app's) and its catalog account. */
export interface TenantShop {
  domain: string;
  /** The supplierSku prefix the connector gives its records (`<name>:product:<id>`). */
  name: string;
  merchantToken: string;
  account: TestAccount;
}

export interface TenantsStackOptions {
  shops: number;
  /** The catalog's rate limit for each account, and the connector's budget per key (per second). */
  catalogRate: number;
  connectorNodeArgs?: string[];
  log(line: string): void;
}

/** Both sandboxes in this process, the shops and accounts, and the connector in its own process. */
export interface TenantsStack {
  catalog: CatalogSandboxHarness;
  shopify: ShopifySandboxHarness;
  shops: TenantShop[];
  /** The connector now (a restart replaces it). */
  connector: ServiceProcess;
  db: pg.Pool;
  schema: string;
  /** The PostgreSQL the connector uses (DATABASE_URL, or the embedded one) and Redis (REDIS_URL, or none). */
  databaseUrl: string;
  redisUrl: string | undefined;
  infrastructure: { database: string; queues: string };
  /** The connector app's client id (its uninstall is `POST /sandbox/shops/{shop}/uninstall`). */
  appClientId: string;
  /** The merchant REST API as the shop (`path` after `/admin/api/2026-07/`); throws on an error status. */
  merchant(shop: TenantShop, method: string, path: string, body?: unknown): Promise<Record<string, unknown>>;
  /** The connector's admin API with the benchmark's token; throws on an error status. */
  admin<T>(method: string, path: string, body?: unknown): Promise<T>;
  /** The merchant's browser through the app's install (begin, authorize, callback). */
  install(shop: TenantShop): Promise<void>;
  /** Stops the connector and starts it again on the same port: resolves with its boot times (ms). */
  restart(): Promise<{ listeningMs: number; readyMs: number }>;
  close(): Promise<void>;
}

/**
 * Starts the stack: `options.shops` shops (`tenant-<i>-<run>.myshopify.com`, each with a merchant
 * token of the default app), an account per shop with the catalog's rate limit on, and the
 * connector with installs open, shops in `live` mode, the reference mapping as the default
 * mapping. No shop is installed yet.
 */
export async function startTenantsStack(options: TenantsStackOptions): Promise<TenantsStack> {
  const closers: Array<() => Promise<unknown>> = [];
  const close = async () => {
    for (const closer of closers.reverse()) await closer().catch(() => undefined);
  };
  try {
    let local: LocalPostgres | undefined;
    let databaseUrl = process.env.DATABASE_URL;
    if (!databaseUrl) {
      local = await startLocalPostgres({ database: 'catalog_connector_bench' });
      databaseUrl = local.url;
      closers.push(() => (local as LocalPostgres).stop());
    }
    const redisUrl = process.env.REDIS_URL || undefined;
    const catalog = await startCatalogSandbox();
    closers.push(() => catalog.close());
    const { schema, db } = benchSchema(databaseUrl, redisUrl, closers);
    const dir = await mkdtemp(join(tmpdir(), 'bench-tenants-'));
    closers.push(() => rm(dir, { recursive: true, force: true }));
    // The reference mapping without its `shop:` line: every shop that installs syncs with it.
    const mappingFile = join(dir, 'mapping.yaml');
    await writeFile(mappingFile, (await readFile(demoMapping(), 'utf8')).replace(/^shop: .*$/m, ''));
    const environment = (port: number, shopifyUrl: string): Record<string, string | undefined> => ({
      ...connectorEnv({
        port,
        databaseUrl,
        redisUrl,
        schema,
        catalogUrl: catalog.url,
        shopifyUrl,
        catalogRate: options.catalogRate,
      }),
      CONNECTOR_SHOPIFY_INSTALLS: 'open',
      CONNECTOR_SHOPIFY_CLIENT_ID: APP.clientId,
      CONNECTOR_SHOPIFY_CLIENT_SECRET: APP.clientSecret,
      CONNECTOR_ENCRYPTION_KEYS: randomBytes(32).toString('base64'),
      CONNECTOR_NEW_SHOP_MODE: 'live',
      CONNECTOR_DEFAULT_MAPPING_FILE: mappingFile,
      CONNECTOR_ADMIN_TOKEN: BENCH_ADMIN_TOKEN,
      CONNECTOR_PUBLIC_URL: `http://127.0.0.1:${port}`,
      ...tuning(),
    });
    const nodeArgs = options.connectorNodeArgs ?? CONNECTOR_NODE_ARGS;
    // The app's redirect URL names the connector's port, so the Shopify sandbox and the connector
    // start together on a port found free, again on another when it was taken meanwhile.
    const started = await onFreePort(async (port) => {
      const shopify = await startShopifySandbox({
        webhooks: { retryDelaysMs: [100, 500, 2_000] },
        oauth: { autoApprove: true },
        apps: [
          appConfig(DEFAULT_APP_CLIENT_ID, 'sandbox-app-secret'),
          {
            ...appConfig(APP.clientId, APP.clientSecret, 'public'),
            redirectUrls: [`http://127.0.0.1:${port}/auth/shopify/callback`],
          },
        ],
      });
      try {
        const env = environment(port, shopify.url);
        return { shopify, env, connector: await startService(CONNECTOR_SCRIPT, env, nodeArgs) };
      } catch (error) {
        await shopify.close();
        throw error;
      }
    });
    const { shopify, env } = started;
    let connector = started.connector;
    closers.push(
      () => shopify.close(),
      () => connector.stop(),
    );
    const run = randomBytes(3).toString('hex');
    const shops: TenantShop[] = [];
    for (let i = 0; i < options.shops; i++) {
      const name = `tenant-${i}-${run}`;
      const shop = {
        domain: `${name}.myshopify.com`,
        accessToken: `shpat_${randomBytes(12).toString('hex')}`,
      };
      const added = await shopify.control('POST', 'shops', shop);
      if (added.status >= 300) throw new Error(`adding ${shop.domain}: ${added.status}`);
      const account = await catalog.createAccount();
      await account.controls.setRateLimit({
        enabled: true,
        ratePerSecond: options.catalogRate,
        burst: Math.max(1, options.catalogRate),
      });
      shops.push({ domain: shop.domain, name, merchantToken: shop.accessToken, account });
    }
    const stack: TenantsStack = {
      catalog,
      shopify,
      shops,
      get connector() {
        return connector;
      },
      db,
      schema,
      databaseUrl,
      redisUrl,
      infrastructure: {
        database: local ? 'embedded' : 'DATABASE_URL',
        queues: redisUrl ? 'redis' : 'postgres',
      },
      appClientId: APP.clientId,
      async merchant(shop, method, path, body) {
        // A keep-alive connection the sandbox closed while idle fails before it is read: sent
        // again, twice at most (as bench-stack's merchant); an error status never is.
        const answer = await retryingFetch(`${shopify.adminUrl}/${path}`, {
          method,
          headers: { 'Content-Type': 'application/json', 'X-Shopify-Access-Token': shop.merchantToken },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        const text = await answer.text();
        if (answer.status >= 300)
          throw new Error(`${method} ${path} (${shop.domain}): ${answer.status} ${text}`);
        return (text ? JSON.parse(text) : {}) as Record<string, unknown>;
      },
      async admin<T>(method: string, path: string, body?: unknown) {
        // GET and PUT are sent again after a network failure (a keep-alive connection closed as
        // it was reused); a POST never is.
        const send = method === 'GET' || method === 'PUT' ? retryingFetch : fetch;
        const answer = await send(`${connector.url}${path}`, {
          method,
          headers: { Authorization: `Bearer ${BENCH_ADMIN_TOKEN}`, 'Content-Type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        const text = await answer.text();
        if (!answer.ok) throw new Error(`${method} ${path}: ${answer.status} ${text}`);
        return (text ? JSON.parse(text) : {}) as T;
      },
      async install(shop) {
        const begun = await retryingFetch(`${connector.url}/auth/shopify?shop=${shop.domain}`, {
          redirect: 'manual',
          headers: BROWSER,
        });
        if (begun.status !== 302)
          throw new Error(`/auth/shopify (${shop.domain}): ${begun.status} ${await begun.text()}`);
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
      },
      async restart() {
        await connector.stop();
        const started = performance.now();
        connector = await startService(CONNECTOR_SCRIPT, env, nodeArgs);
        const listeningMs = performance.now() - started;
        await waitFor(
          'the connector to be ready',
          async () => (await fetch(`${connector.url}/health/ready`)).status === 200,
          120_000,
        );
        return { listeningMs, readyMs: performance.now() - started };
      },
      close,
    };
    return stack;
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * `fetch`, sent again (twice at most) after a network failure, never after an answer: a request
 * on a keep-alive connection the server closed while it sat idle fails before it is read (on a
 * busy machine, now and then). Only for requests that may be repeated.
 */
export async function retryingFetch(url: string, init: RequestInit): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fetch(url, init);
    } catch (error) {
      if (attempt >= 3 || !(error instanceof TypeError)) throw error;
    }
  }
}

/** Runs `work` over `items`, `parallel` at a time, in order of the list. */
export async function forEachLimited<T>(
  items: readonly T[],
  parallel: number,
  work: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) await work(items[i] as T, i);
  };
  await Promise.all(Array.from({ length: Math.min(parallel, items.length) }, worker));
}
