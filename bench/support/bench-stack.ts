import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { type LocalPostgres, startLocalPostgres } from '#lib/local-postgres';
import { type CatalogSandboxHarness, startCatalogSandbox, type TestAccount } from '#testing/catalog-sandbox';
import {
  type SandboxOverrides,
  type ShopifySandboxHarness,
  startShopifySandbox,
} from '#testing/shopify-sandbox';
import { onFreePort, type ServiceProcess, startService } from './child-process.js';

export interface BenchStackOptions {
  /** Shopify sandbox settings (merge window, cost bucket). */
  shopify?: SandboxOverrides;
  /**
   * The catalog's rate limit for each account, per second: the sandbox enforces it (429 past it)
   * and the connector's and the peer's budgets match it.
   */
  catalogRate: number;
  /** Extra CONNECTOR_* variables. */
  connectorEnv?: Record<string, string>;
  /** Node.js flags of the connector's process (`--cpu-prof`). */
  connectorNodeArgs?: string[];
  /** Start the naive peer too (default true). */
  peer?: boolean;
  /**
   * Subscribe the connector and the peer to the shop's product webhooks (default true). Without,
   * products the benchmark creates reach neither, until it syncs them on purpose.
   */
  subscribe?: boolean;
}

/** One shop and two catalog accounts on both sandboxes, the connector and the naive peer. */
export interface BenchStack {
  catalog: CatalogSandboxHarness;
  shopify: ShopifySandboxHarness;
  /** The connector's account and the peer's: each system writes only into its own. */
  connectorAccount: TestAccount;
  peerAccount: TestAccount;
  connector: ServiceProcess;
  peer: ServiceProcess | null;
  /** The connector's tables (schema `schema`). */
  db: pg.Pool;
  schema: string;
  shop: { domain: string; accessToken: string; secret: string };
  /** `database`: "DATABASE_URL" or "embedded"; `queues`: "redis" or "postgres". */
  infrastructure: { database: string; queues: string };
  /** The merchant REST API (`path` after `/admin/api/2026-07/`); throws on an error status. */
  merchant(method: string, path: string, body?: unknown): Promise<Record<string, unknown>>;
  /** Waits until the Shopify sandbox sent every delivery and the connector handled every one. */
  settle(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * Why: a benchmark's connector gets tables and queues of its own (a fresh schema, its queues'
 * namespace `<schema>_q`) and the benchmark a small pool on them; both are dropped when the stack
 * closes (`closers` runs in reverse, after the connector stopped).
 */
export function benchSchema(
  databaseUrl: string,
  redisUrl: string | undefined,
  closers: Array<() => Promise<unknown>>,
): { schema: string; db: pg.Pool } {
  const schema = `bench_${randomBytes(5).toString('hex')}`;
  const db = new pg.Pool({ connectionString: databaseUrl, max: 3 });
  closers.push(async () => {
    await db.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await db.query(`DROP SCHEMA IF EXISTS "${schema}_q" CASCADE`);
    if (redisUrl) await dropRedisNamespace(redisUrl, `${schema}_q`);
    await db.end();
  });
  return { schema, db };
}

/** Where a benchmark's connector runs and what it talks to (`connectorEnv`). */
export interface ConnectorWiring {
  port: number;
  databaseUrl: string;
  redisUrl: string | undefined;
  /** Its tables' schema; its queues' namespace is `<schema>_q`. */
  schema: string;
  catalogUrl: string;
  shopifyUrl: string;
  /** The catalog budget per key, calls a second. */
  catalogRate: number;
}

/**
 * Why: the environment every benchmark stack gives its connector (its process, database, queues,
 * the two sandboxes and the paces a benchmark shortens), written once; each stack adds how its
 * shops join (configured, or installed through OAuth) and then `tuning()`.
 */
export function connectorEnv(w: ConnectorWiring): Record<string, string | undefined> {
  return {
    PATH: process.env.PATH,
    // Node.js options for the connector alone (`--max-old-space-size=128`, say); by default
    // the ones docker-compose.yml and `npm start` run it with.
    NODE_OPTIONS: process.env.BENCH_CONNECTOR_NODE_OPTIONS ?? CONNECTOR_NODE_OPTIONS,
    PORT: String(w.port),
    DATABASE_URL: w.databaseUrl,
    REDIS_URL: w.redisUrl,
    CONNECTOR_DATABASE_SCHEMA: w.schema,
    CONNECTOR_QUEUE_NAMESPACE: `${w.schema}_q`,
    CONNECTOR_CATALOG_URL: w.catalogUrl,
    CONNECTOR_SHOPIFY_ADMIN_ORIGIN: w.shopifyUrl,
    CONNECTOR_CATALOG_RATE_PER_SECOND: String(w.catalogRate),
    CONNECTOR_CATALOG_PAUSE_RECHECK_MS: '500',
    CONNECTOR_MAPPING_RECHECK_MS: '500',
    // The Shopify sandbox serves the image bytes: its origin is the media allowlist here.
    CONNECTOR_MEDIA_ALLOWED_HOSTS: w.shopifyUrl,
  };
}

/** The connector's Node.js options in production (docker-compose.yml's NODE_OPTIONS, `npm start`'s nodeArgs). */
export const CONNECTOR_NODE_OPTIONS = '--max-semi-space-size=4';
/** The V8 flags it runs with in production that NODE_OPTIONS refuses (docker-compose.yml's command, `npm start`). */
export const CONNECTOR_NODE_ARGS = ['--heap-growing-percent=20'];

/** The connector's process script (built): every benchmark starts the connector through it. */
export const CONNECTOR_SCRIPT = fileURLToPath(new URL('./connector-process.js', import.meta.url));
/** The naive peer's process script (built). */
export const PEER_SCRIPT = fileURLToPath(new URL('../naive-peer/main.js', import.meta.url));

/**
 * Starts a benchmark's own stack: both sandboxes in this process on random 127.0.0.1 ports, the
 * machine's PostgreSQL and Redis when DATABASE_URL / REDIS_URL are set (else an embedded
 * PostgreSQL, with the queues on it), the connector and the naive peer each in its own process,
 * both subscribed to the shop's product webhooks.
 */
export async function startBenchStack(options: BenchStackOptions): Promise<BenchStack> {
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
    const [catalog, shopify] = await Promise.all([
      startCatalogSandbox(),
      startShopifySandbox({ webhooks: { retryDelaysMs: [100, 500, 2_000] }, ...options.shopify }),
    ]);
    closers.push(
      () => catalog.close(),
      () => shopify.close(),
    );
    const [connectorAccount, peerAccount] = await Promise.all([
      catalog.createAccount(),
      catalog.createAccount(),
    ]);
    const limit = {
      enabled: true,
      ratePerSecond: options.catalogRate,
      burst: Math.max(1, options.catalogRate),
    };
    await connectorAccount.controls.setRateLimit(limit);
    await peerAccount.controls.setRateLimit(limit);
    const shop = { domain: shopify.shopDomain, accessToken: shopify.accessToken, secret: shopify.appSecret };
    const key = shop.domain.replace('.myshopify.com', '').replaceAll('-', '_').toUpperCase();
    const { schema, db } = benchSchema(databaseUrl, redisUrl, closers);
    const connector = await onFreePort((port) =>
      startService(
        CONNECTOR_SCRIPT,
        {
          ...connectorEnv({
            port,
            databaseUrl,
            redisUrl,
            schema,
            catalogUrl: catalog.url,
            shopifyUrl: shopify.url,
            catalogRate: options.catalogRate,
          }),
          CONNECTOR_SHOPS: shop.domain,
          [`CONNECTOR_SHOP_${key}_ACCESS_TOKEN`]: shop.accessToken,
          [`CONNECTOR_SHOP_${key}_MAPPING_FILE`]: demoMapping(),
          CONNECTOR_WEBHOOK_SECRETS: shop.secret,
          CONNECTOR_CATALOG_API_KEY: connectorAccount.apiKey,
          CONNECTOR_PUBLIC_URL: options.subscribe === false ? undefined : `http://127.0.0.1:${port}`,
          CONNECTOR_MEDIA_FIRST_POLL_MS: '1000',
          CONNECTOR_MEDIA_POLL_MS: '1000',
          ...options.connectorEnv,
          ...tuning(),
        },
        options.connectorNodeArgs ?? CONNECTOR_NODE_ARGS,
      ),
    );
    closers.push(() => connector.stop());
    let peer: ServiceProcess | null = null;
    if (options.peer !== false) {
      peer = await startService(PEER_SCRIPT, {
        PATH: process.env.PATH,
        NAIVE_PEER_WEBHOOK_SECRET: shop.secret,
        NAIVE_PEER_CATALOG_URL: catalog.url,
        NAIVE_PEER_CATALOG_API_KEY: peerAccount.apiKey,
        NAIVE_PEER_CATALOG_RATE_PER_SECOND: String(options.catalogRate),
        NAIVE_PEER_CATALOG_RATE_BURST: '1',
      });
      closers.push(() => (peer as ServiceProcess).stop());
      const topics =
        options.subscribe === false ? [] : ['PRODUCTS_CREATE', 'PRODUCTS_UPDATE', 'PRODUCTS_DELETE'];
      for (const topic of topics) {
        const answer = await shopify.graphql(
          'mutation ($topic: WebhookSubscriptionTopic!, $uri: String!) { webhookSubscriptionCreate(topic: $topic, webhookSubscription: {uri: $uri}) { userErrors { message } } }',
          { topic, uri: `${peer.url}/webhooks/shopify` },
        );
        if (answer.errors) throw new Error(`peer subscription: ${JSON.stringify(answer.errors)}`);
      }
    }
    await waitFor('the connector to subscribe the shop', async () => {
      if (options.subscribe === false) return true;
      const subs = await shopify.graphql<{ webhookSubscriptions: { nodes: Array<{ uri: string }> } }>(
        '{ webhookSubscriptions(first: 50) { nodes { uri } } }',
      );
      return (
        subs.data?.webhookSubscriptions.nodes.filter((n) => n.uri.startsWith(connector.url)).length === 4 // the product topics and app/uninstalled
      );
    });
    return {
      catalog,
      shopify,
      connectorAccount,
      peerAccount,
      connector,
      peer,
      db,
      schema,
      shop,
      infrastructure: {
        database: local ? 'embedded' : 'DATABASE_URL',
        queues: redisUrl ? 'redis' : 'postgres',
      },
      async merchant(method, path, body) {
        // A request on a keep-alive connection the sandbox closed while it sat idle fails before
        // it is read ("fetch failed"): on a busy machine one of 100,000 creates failed so. A
        // network failure is sent again, twice at most; an error status never is. (Were the
        // connection to break after the sandbox acted, a create would make one product more.)
        let answer: Awaited<ReturnType<typeof shopify.merchant>> | undefined;
        for (let attempt = 1; answer === undefined; attempt++) {
          try {
            answer = await shopify.merchant(method, path, body);
          } catch (error) {
            if (attempt >= 3 || !(error instanceof TypeError)) throw error;
          }
        }
        if (answer.status >= 300)
          throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
        return answer.body;
      },
      async settle(timeoutMs = 120_000) {
        await shopify.sandbox.idle();
        await waitFor(
          'the connector to handle every delivery',
          async () => {
            const { rows } = await db.query<{ n: string }>(
              `SELECT count(*) AS n FROM "${schema}".inbox WHERE state = 'received'`,
            );
            return rows[0]?.n === '0';
          },
          timeoutMs,
        );
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** What the benchmark wires itself: never taken from the environment. */
const WIRING =
  /^CONNECTOR_(SHOPS|SHOP_|CATALOG_URL|CATALOG_API_KEY|ADMIN_TOKEN|PUBLIC_URL|DATABASE_SCHEMA|QUEUE_NAMESPACE|SHOPIFY_ADMIN_ORIGIN|WEBHOOK_SECRETS)/;

/**
 * The `CONNECTOR_*` settings of the environment that runs the benchmark (sync concurrency, pool
 * size, debounce, ...), passed on to the connector over the benchmark's own: to try a setting
 * (`CONNECTOR_SYNC_CONCURRENCY=8 npm run bench -- initial-sync`). Wiring variables are ignored.
 */
export function tuning(): Record<string, string> {
  return Object.fromEntries(
    Object.entries(process.env).filter(
      (e): e is [string, string] => e[0].startsWith('CONNECTOR_') && !WIRING.test(e[0]) && e[1] !== undefined,
    ),
  );
}

/** Polls `probe` every 50 ms until it is true; throws after `timeoutMs`. */
export async function waitFor(
  what: string,
  probe: () => Promise<boolean>,
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await probe().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The reference mapping, `apps/connector/mappings/demo.yaml` (its shop is the sandbox's demo shop). */
export function demoMapping(): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const candidate = join(dir, 'apps', 'connector', 'mappings', 'demo.yaml');
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) throw new Error('apps/connector/mappings/demo.yaml not found');
  }
}

/** Deletes the keys of a queue namespace from Redis (`<prefix>:*`): what a benchmark's queues left. */
export async function dropRedisNamespace(url: string, prefix: string): Promise<void> {
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, { maxRetriesPerRequest: 1 });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
