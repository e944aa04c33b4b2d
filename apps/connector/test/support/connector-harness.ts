import { randomBytes, randomUUID } from 'node:crypto';
import { Test } from '@nestjs/testing';
import pg from 'pg';
import { inject } from 'vitest';
import type { Clock } from '#lib/clock';
import { freePort } from '#lib/local-postgres';
import {
  type Connector,
  type ConnectorConfig,
  type ConnectorOptions,
  createConnector,
  loadConnectorConfig,
  prepareConnector,
  startConnector as startApp,
} from '../../src/index.js';
import { type ProviderOverride, type SyncHooks, syncSeams } from './sync-seams.js';
import { sign, type TestShop } from './test-shop.js';

export interface ConnectorHarnessOptions {
  shops: TestShop[];
  /** The catalog sandbox (or any URL) the shops sync into. */
  catalogUrl: string;
  catalogApiKey: string;
  /** The Shopify sandbox: Admin API calls go there (`sandboxFetch`). */
  shopifyFetch?: typeof fetch;
  /** Extra CONNECTOR_* variables. */
  env?: Record<string, string | undefined>;
  /** Share tables and queues with another harness (two replicas). */
  schema?: string;
  databaseUrl?: string;
  syncHooks?: Partial<SyncHooks>;
  /** Providers replaced in the connector (test seams, e.g. `pushSeamOverrides`). */
  overrides?: ProviderOverride[];
  clock?: Clock;
  /** Set CONNECTOR_PUBLIC_URL to this connector's own URL (it then subscribes its shops). */
  publicUrl?: boolean;
  /** The connector's log levels (errors only by default), and where its JSON lines go. */
  logger?: ConnectorOptions['logger'];
  logDestination?: ConnectorOptions['logDestination'];
}

export interface ConnectorHarness {
  connector: Connector;
  url: string;
  schema: string;
  /** A pool on the connector's database, for assertions. */
  db: pg.Pool;
  /** POSTs a delivery to /webhooks/shopify; signs with the shop's first secret unless `secret`. */
  deliver(input: DeliveryInput): Promise<{ status: number; body: Record<string, unknown>; headers: Headers }>;
  /** The inbox rows of a shop (and product), oldest first. */
  inbox(shop: string, productId?: string): Promise<InboxRow[]>;
  close(): Promise<void>;
}

export interface DeliveryInput {
  shop: TestShop;
  body: string | Buffer;
  topic?: string;
  webhookId?: string;
  eventId?: string;
  secret?: string;
  headers?: Record<string, string | undefined>;
}

export interface InboxRow {
  id: string;
  webhook_id: string;
  event_id: string | null;
  triggered_at: string | null;
  topic: string;
  product_id: string | null;
  state: string;
  outcome: string | null;
  body: Buffer | null;
  body_truncated: boolean;
  enqueued_at: Date | null;
}

/** Starts a connector on a random port with its own schema and queue namespace. */
export async function startConnector(options: ConnectorHarnessOptions): Promise<ConnectorHarness> {
  const databaseUrl = options.databaseUrl ?? inject('databaseUrl');
  const backend = inject('queueBackend');
  const schema = options.schema ?? `c_${randomBytes(6).toString('hex')}`;
  const port = await freePort();
  const env: Record<string, string | undefined> = {
    PORT: String(port),
    DATABASE_URL: databaseUrl,
    REDIS_URL: backend.kind === 'redis' ? backend.url : undefined,
    CONNECTOR_DATABASE_SCHEMA: schema,
    CONNECTOR_QUEUE_NAMESPACE: `${schema}_q`,
    CONNECTOR_SHOPS: options.shops.map((shop) => shop.domain).join(','),
    CONNECTOR_CATALOG_URL: options.catalogUrl,
    CONNECTOR_CATALOG_API_KEY: options.catalogApiKey,
    CONNECTOR_SYNC_DEBOUNCE_MS: '0',
    CONNECTOR_SYNC_BACKOFF_MS: '50',
    CONNECTOR_SYNC_LOCK_RETRY_MS: '50',
    CONNECTOR_CATALOG_PAUSE_RECHECK_MS: '200',
    // No scheduled drift report (a whole-account read at each boot) unless a test asks for one.
    CONNECTOR_DRIFT_INTERVAL_MS: '0',
    CONNECTOR_PUBLIC_URL: options.publicUrl ? `http://127.0.0.1:${port}` : undefined,
    ...Object.fromEntries(
      options.shops.flatMap((shop) => [
        [`CONNECTOR_SHOP_${shop.key}_ACCESS_TOKEN`, shop.accessToken],
        [`CONNECTOR_SHOP_${shop.key}_WEBHOOK_SECRETS`, shop.webhookSecrets.join(',')],
      ]),
    ),
    ...options.env,
  };
  const config = loadConnectorConfig(env);
  const connector = await connectorWith(
    config,
    {
      logger: options.logger ?? ['error'],
      logDestination: options.logDestination,
      shopifyFetch: options.shopifyFetch,
      clock: options.clock,
    },
    [...syncSeams(options.syncHooks), ...(options.overrides ?? [])],
  );
  const url = await connector.listen();
  const db = new pg.Pool({ connectionString: databaseUrl, max: 3 });
  return {
    connector,
    url,
    schema,
    db,
    async deliver(input) {
      const response = await fetch(`${url}/webhooks/shopify`, {
        method: 'POST',
        body: input.body,
        headers: deliveryHeaders(input),
      });
      const text = await response.text();
      return {
        status: response.status,
        body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
        headers: response.headers,
      };
    },
    async inbox(shop, productId) {
      const { rows } = await db.query<InboxRow>(
        `SELECT id, webhook_id, event_id, triggered_at, topic, product_id::text, state, outcome, body, body_truncated,
                enqueued_at
           FROM "${schema}".inbox WHERE shop = $1 AND ($2::bigint IS NULL OR product_id = $2::bigint) ORDER BY id`,
        [shop, productId ?? null],
      );
      return rows;
    },
    async close() {
      await connector.close();
      if (options.schema === undefined) {
        await db.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => undefined);
        if (backend.kind === 'postgres') {
          await db.query(`DROP SCHEMA IF EXISTS "${schema}_q" CASCADE`).catch(() => undefined);
        }
      }
      await db.end();
    },
  };
}

/**
 * The connector as `createConnector` builds it; with overrides, compiled as a testing module whose
 * providers they replace (Nest's `overrideProvider`): the test seams stay out of the connector.
 */
async function connectorWith(
  config: ConnectorConfig,
  options: ConnectorOptions,
  overrides: ProviderOverride[],
): Promise<Connector> {
  if (overrides.length === 0) return createConnector(config, options);
  const { module, logger } = await prepareConnector(config, options);
  let builder = Test.createTestingModule({ imports: [module] }).setLogger(logger);
  for (const { provide, useClass } of overrides)
    builder = builder.overrideProvider(provide).useClass(useClass);
  const moduleRef = await builder.compile();
  return startApp(moduleRef.createNestApplication({ bodyParser: false, logger }), config, logger);
}

function deliveryHeaders(input: DeliveryInput): Record<string, string> {
  const headers: Record<string, string | undefined> = {
    'Content-Type': 'application/json',
    'X-Shopify-Topic': input.topic ?? 'products/update',
    'X-Shopify-Shop-Domain': input.shop.domain,
    'X-Shopify-Webhook-Id': input.webhookId ?? randomUUID(),
    'X-Shopify-Event-Id': input.eventId ?? randomUUID(),
    'X-Shopify-Triggered-At': new Date().toISOString(),
    'X-Shopify-API-Version': '2026-07',
    'X-Shopify-Hmac-Sha256': sign(input.body, input.secret ?? (input.shop.webhookSecrets[0] as string)),
    ...input.headers,
  };
  return Object.fromEntries(Object.entries(headers).filter((e): e is [string, string] => e[1] !== undefined));
}

/** Polls `probe` until it returns a value that is not undefined/false, or fails after `timeoutMs`. */
export async function eventually<T>(
  probe: () => Promise<T | undefined | false>,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`timed out${last ? `: ${String(last)}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
