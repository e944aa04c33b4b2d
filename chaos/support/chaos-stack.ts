import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { freePort, type LocalPostgres } from '#lib/local-postgres';
import { type CatalogSandboxHarness, startCatalogSandbox, type TestAccount } from '#testing/catalog-sandbox';
import { type ShopifySandboxHarness, startShopifySandbox } from '#testing/shopify-sandbox';
import type { OwnRedis } from './redis-server.js';
import { type SupervisedConnector, superviseConnector } from './supervised-connector.js';

/** What the whole run shares: its own PostgreSQL, and its own Redis when one is installed. */
export interface ChaosInfrastructure {
  postgres: LocalPostgres;
  redis: OwnRedis | null;
}

export const ADMIN_TOKEN = 'chaos-run-admin-token-0001';
/** The catalog account's rate limit (the sandbox enforces it; the connector's budget matches). */
const CATALOG_RATE = 40;

/** One scenario's stack: both sandboxes, a schema and queue namespace of its own, the connector. */
export interface ChaosStack {
  catalog: CatalogSandboxHarness;
  shopify: ShopifySandboxHarness;
  account: TestAccount;
  connector: SupervisedConnector;
  db: pg.Pool;
  schema: string;
  /** The shop's handle, the prefix of the connector's supplierSkus (`<handle>:product:<id>`). */
  handle: string;
  queues: 'redis' | 'postgres';
  /** The merchant REST API; throws on an error status. */
  merchant(method: string, path: string, body?: unknown): Promise<Record<string, unknown>>;
  /** The connector's admin API (its token); `body` as JSON. */
  admin<T>(method: string, path: string, body?: unknown): Promise<T>;
  close(): Promise<void>;
}

/**
 * Starts a scenario's stack: the sandboxes in this process on random 127.0.0.1 ports (Shopify
 * retrying a failed delivery for about 35 s), the connector supervised in its own process on the
 * run's PostgreSQL and, when there is one, the run's Redis, subscribed to the shop's product
 * webhooks. Settings are the production defaults except the waits that would make a run take
 * hours (each listed in chaos/README.md).
 */
export async function startChaosStack(
  infra: ChaosInfrastructure,
  connectorEnv: Record<string, string> = {},
): Promise<ChaosStack> {
  const closers: Array<() => Promise<unknown>> = [];
  const close = async () => {
    for (const closer of closers.reverse()) await closer().catch(() => undefined);
  };
  try {
    const [catalog, shopify] = await Promise.all([
      startCatalogSandbox(),
      startShopifySandbox({ webhooks: { retryDelaysMs: [250, 500, 1_000, 2_000, 4_000, 8_000, 16_000] } }),
    ]);
    closers.push(
      () => catalog.close(),
      () => shopify.close(),
    );
    const account = await catalog.createAccount();
    await account.controls.setRateLimit({ enabled: true, ratePerSecond: CATALOG_RATE, burst: CATALOG_RATE });
    const domain = shopify.shopDomain;
    const handle = domain.replace('.myshopify.com', '');
    const key = handle.replaceAll('-', '_').toUpperCase();
    const schema = `chaos_${randomBytes(5).toString('hex')}`;
    const db = new pg.Pool({ connectionString: infra.postgres.url, max: 3 });
    db.on('error', () => undefined);
    closers.push(async () => {
      await db.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await db.query(`DROP SCHEMA IF EXISTS "${schema}_q" CASCADE`);
      await db.end();
    });
    const port = await freePort();
    const connector = await superviseConnector(
      {
        PATH: process.env.PATH,
        NODE_OPTIONS: '--max-semi-space-size=4',
        DATABASE_URL: infra.postgres.url,
        REDIS_URL: infra.redis?.url,
        CONNECTOR_DATABASE_SCHEMA: schema,
        CONNECTOR_QUEUE_NAMESPACE: `${schema}_q`,
        CONNECTOR_SHOPS: domain,
        [`CONNECTOR_SHOP_${key}_ACCESS_TOKEN`]: shopify.accessToken,
        [`CONNECTOR_SHOP_${key}_MAPPING_FILE`]: demoMapping(),
        CONNECTOR_WEBHOOK_SECRETS: shopify.appSecret,
        CONNECTOR_CATALOG_URL: catalog.url,
        CONNECTOR_CATALOG_API_KEY: account.apiKey,
        CONNECTOR_SHOPIFY_ADMIN_ORIGIN: shopify.url,
        CONNECTOR_PUBLIC_URL: `http://127.0.0.1:${port}`,
        CONNECTOR_ADMIN_TOKEN: ADMIN_TOKEN,
        CONNECTOR_CATALOG_RATE_PER_SECOND: String(CATALOG_RATE),
        CONNECTOR_MEDIA_ENABLED: 'false',
        // Waits shortened so a run takes seconds, not hours (chaos/README.md, "Settings").
        CONNECTOR_SYNC_DEBOUNCE_MS: '200',
        CONNECTOR_SYNC_BACKOFF_MS: '250',
        CONNECTOR_SYNC_LOCK_RETRY_MS: '100',
        CONNECTOR_QUEUE_LOCK_MS: '4000',
        CONNECTOR_QUEUE_CHECK_INTERVAL_MS: '1000',
        CONNECTOR_INBOX_SWEEP_INTERVAL_MS: '2000',
        CONNECTOR_INBOX_SWEEP_AFTER_MS: '3000',
        CONNECTOR_CATALOG_BREAKER_COOLDOWN_MS: '1000',
        CONNECTOR_CATALOG_PAUSE_RECHECK_MS: '250',
        CONNECTOR_MAPPING_RECHECK_MS: '500',
        CONNECTOR_DATABASE_TIMEOUT_MS: '2000',
        CONNECTOR_ENRICHMENT_POLL_INTERVAL_MS: '86400000',
        CONNECTOR_ENRICHMENT_PUSH_BACKOFF_MS: '250',
        CONNECTOR_ENRICHMENT_LOCK_RETRY_MS: '100',
        ...connectorEnv,
      },
      port,
    );
    closers.push(() => connector.stop());
    await waitFor('the connector to subscribe the shop', 60_000, async () => {
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
      account,
      connector,
      db,
      schema,
      handle,
      queues: infra.redis ? 'redis' : 'postgres',
      async merchant(method, path, body) {
        const answer = await shopify.merchant(method, path, body);
        if (answer.status >= 300)
          throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
        return answer.body;
      },
      async admin<T>(method: string, path: string, body?: unknown): Promise<T> {
        const answer = await fetch(`${connector.url}${path}`, {
          method,
          headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        if (!answer.ok) throw new Error(`${method} ${path}: ${answer.status} ${await answer.text()}`);
        return (await answer.json()) as T;
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** Polls `probe` every 100 ms until it is true (errors count as false); throws after `timeoutMs`. */
export async function waitFor(what: string, timeoutMs: number, probe: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await probe().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The reference mapping, `apps/connector/mappings/demo.yaml`. */
function demoMapping(): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const candidate = join(dir, 'apps', 'connector', 'mappings', 'demo.yaml');
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) throw new Error('apps/connector/mappings/demo.yaml not found');
  }
}
