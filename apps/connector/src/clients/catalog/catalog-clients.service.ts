import { Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { Redis } from 'ioredis';
import pg from 'pg';
import {
  apiKeyFingerprint,
  CatalogClient,
  PostgresRateLimiter,
  type RateLimiter,
  RedisRateLimiter,
} from '#lib/catalog-client';
import { Clock } from '#lib/clock';
import type { ShopConfig } from '../../platform/config/connector.config.js';
import {
  CatalogSettings,
  DatabaseSettings,
  MediaSettings,
  QueueSettings,
} from '../../platform/config/settings.js';
import { BoundedErrorLog } from '../../platform/queues/bounded-error-log.js';
import { Observations } from '../../platform/reporting/observations.service.js';
import { Shops } from '../../shops/shops.js';
import { CatalogKeyMissingError } from './catalog-key-missing.error.js';

/** One catalog account as the connector reaches it: its client and the shops on it. */
export interface CatalogAccount {
  /** `<baseUrl>#<key fingerprint>`: safe to log, never the key. */
  id: string;
  client: CatalogClient;
  shops: string[];
}

/**
 * One `CatalogClient` per catalog API key (and base URL): shops on one account share its client,
 * so they share its breaker and its rate budget. The budget is shared across replicas too, in
 * Redis when the queues are there, else in PostgreSQL (table created by a migration); so is the
 * breaker, in PostgreSQL (`SharedBreakers`, through the gate).
 */
@Injectable()
export class CatalogClients implements OnModuleDestroy {
  private readonly logger = new Logger('CatalogClients');
  private readonly accounts = new Map<string, CatalogAccount>();
  private readonly byShop = new Map<string, CatalogAccount>();
  private readonly accountListeners = new Set<(account: CatalogAccount) => void>();
  private readonly pool: pg.Pool | null;
  private readonly redis: Redis | null;

  constructor(
    private readonly databaseSettings: DatabaseSettings,
    queueSettings: QueueSettings,
    private readonly catalogSettings: CatalogSettings,
    private readonly mediaSettings: MediaSettings,
    private readonly shops: Shops,
    private readonly clock: Clock,
    private readonly observations: Observations,
  ) {
    const { redisUrl } = queueSettings;
    this.redis = redisUrl ? new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 2 }) : null;
    // Heard, or ioredis prints each reconnect's error raw beside the JSON log.
    this.redis?.on(
      'error',
      new BoundedErrorLog(clock, (message) => this.logger.warn(message)).listener('Rate limiter Redis'),
    );
    this.pool =
      this.redis === null && databaseSettings.url
        ? new pg.Pool({
            connectionString: databaseSettings.url,
            max: 2,
            application_name: 'catalog-connector-limiter',
            // A grant's commit does not wait for the disk: the bucket is a pace, not a record. An
            // operating-system crash can lose its last fraction of a second (a few calls' worth
            // granted again after the restart); a commit that waited cost each grant a WAL flush.
            options: '-c synchronous_commit=off',
          })
        : null;
    this.pool?.on('error', (error) => this.logger.warn(`Rate limiter pool: ${error.message}`));
    for (const shop of shops.all) if (shop.catalog.apiKey.reveal() !== '') this.accountOf(shop);
  }

  /**
   * The account (client, breaker) a shop syncs into, made at its first use (a shop that
   * installed the app gets its account once the operator set its key). Throws
   * `CatalogKeyMissingError` (its jobs wait) while the shop has no key.
   */
  forShop(domain: string): CatalogAccount {
    const shop = this.shops.find(domain);
    if (!shop) throw new Error(`No catalog account for shop ${domain}`);
    if (shop.catalog.apiKey.reveal() === '') {
      throw new CatalogKeyMissingError(shop.domain, this.catalogSettings.pauseRecheckMs);
    }
    return this.accountOf(shop);
  }

  /** Why the shop's stored catalog key cannot be used (it cannot be decrypted); null: none. */
  keyProblem(domain: string): string | null {
    return this.shops.find(domain)?.catalog.apiKeyProblem ?? null;
  }

  /** Whether the shop has a catalog API key (a shop that installed the app waits for the operator's). */
  hasKey(domain: string): boolean {
    return (this.shops.find(domain)?.catalog.apiKey.reveal() ?? '') !== '';
  }

  private accountOf(shop: ShopConfig): CatalogAccount {
    const id = `${shop.catalog.baseUrl}#${apiKeyFingerprint(shop.catalog.apiKey.reveal())}`;
    const known = this.byShop.get(shop.domain);
    if (known?.id === id) return known;
    let account = this.accounts.get(id);
    const made = !account;
    if (!account) {
      account = { id, client: this.createClient(id, shop, this.clock), shops: [] };
      this.accounts.set(id, account);
    }
    if (known) known.shops.splice(known.shops.indexOf(shop.domain), 1);
    account.shops.push(shop.domain);
    this.byShop.set(shop.domain, account);
    if (made) for (const listener of this.accountListeners) listener(account);
    return account;
  }

  /**
   * Calls `listener` with each account made so far and each made later (the gate shares and
   * follows every account's breaker from its start); returns the unsubscribe function.
   */
  onAccount(listener: (account: CatalogAccount) => void): () => void {
    this.accountListeners.add(listener);
    for (const account of this.accounts.values()) listener(account);
    return () => this.accountListeners.delete(listener);
  }

  /** The rate limiter's PostgreSQL connections open now (0 with Redis); at most 2. */
  limiterConnections(): number {
    return this.pool?.totalCount ?? 0;
  }

  all(): CatalogAccount[] {
    return [...this.accounts.values()];
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.allSettled(this.all().map((account) => account.client.close()));
    await this.pool?.end().catch(() => undefined);
    this.redis?.disconnect();
  }

  private createClient(id: string, shop: ShopConfig, clock: Clock): CatalogClient {
    const { ratePerSecond, burst, breakerCooldownMs, breakerAuthCooldownMs } = this.catalogSettings;
    return new CatalogClient({
      baseUrl: shop.catalog.baseUrl,
      apiKey: shop.catalog.apiKey.reveal(),
      clock,
      rate: { ratePerSecond, burst },
      limiter: ({ fingerprint }) => this.limiter(fingerprint, clock),
      // One breaker per account across replicas (`SharedBreakers`): the gate grants its probes.
      breaker: { cooldownMs: breakerCooldownMs, authCooldownMs: breakerAuthCooldownMs, probes: 'granted' },
      // Counted by operations (calls by endpoint and status, 429s): never a header, body or key.
      metrics: {
        call: ({ endpoint, status, outcome }) =>
          this.observations.catalogCall({ account: id, endpoint, status, outcome }),
        rateLimited: ({ endpoint }) => this.observations.catalogRateLimited({ account: id, endpoint }),
      },
      // Product images: status polls start late and back off (config/media-uploads.ts).
      uploads: this.mediaSettings.uploads,
      logger: {
        debug: () => undefined,
        warn: (message) => this.logger.warn(message),
      },
    });
  }

  private limiter(bucket: string, clock: Clock): RateLimiter {
    const { ratePerSecond, burst } = this.catalogSettings;
    if (this.redis) return new RedisRateLimiter({ redis: this.redis, bucket, clock, ratePerSecond, burst });
    if (!this.pool) throw new Error('No store for the catalog rate limiter');
    return new PostgresRateLimiter({
      pool: this.pool,
      bucket,
      clock,
      ratePerSecond,
      burst,
      schema: this.databaseSettings.schema,
    });
  }
}
