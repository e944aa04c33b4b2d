import { CatalogErrorCode, CatalogLimits } from '#lib/catalog-contract';
import { AttributeCatalog } from '../attributes/attribute-catalog.js';
import type { SandboxBehaviour } from '../config/sandbox-behaviour.js';
import { CatalogApiError } from '../http/catalog-api.error.js';
import { InMemoryProductStore } from '../products/in-memory-product.store.js';
import type { ProductStore } from '../products/product-store.js';
import { RequestLog } from '../request-log/request-log.js';
import { TieOrder } from '../search/tie-order.js';
import { Taxonomy } from '../taxonomy/taxonomy.js';
import { FaultInjector } from '../traffic/fault-injector.js';
import { type RateLimitSettings, TokenBucket } from '../traffic/token-bucket.js';
import type { AccountDefinition } from './account-definition.js';
import type { ApiKey } from './api-key.js';

/** One tenant of the sandbox: its configuration, keys, records and request log. */
export class Account {
  readonly taxonomy: Taxonomy;
  readonly attributes: AttributeCatalog;
  readonly products: ProductStore = new InMemoryProductStore();
  readonly requestLog = new RequestLog();
  readonly apiKeys = new Map<string, ApiKey>();
  readonly faults = new FaultInjector();
  readonly rateBucket: TokenBucket;
  /** The per-request shuffle of search ties (`behaviour.searchTieOrder`). */
  readonly tieOrder: TieOrder;
  behaviour: SandboxBehaviour;
  rateLimit: RateLimitSettings;
  /** Insertion sequence for records (sort tie break). */
  private recordSeq = 0;
  private keySeq = 0;

  constructor(
    readonly id: string,
    definition: AccountDefinition,
    defaults: SandboxBehaviour,
    rateLimit: RateLimitSettings,
    readonly createdAt: number,
    tieSeed = 0,
  ) {
    try {
      this.taxonomy = new Taxonomy(definition.taxonomy ?? [], createdAt);
      this.attributes = new AttributeCatalog(definition.attributes ?? [], createdAt, (c) =>
        this.taxonomy.has(c),
      );
    } catch (error) {
      throw CatalogApiError.validation(`Invalid account definition: ${(error as Error).message}.`);
    }
    this.behaviour = { ...defaults, ...definition.behaviour };
    this.rateLimit = { ...rateLimit };
    this.rateBucket = new TokenBucket(this.rateLimit);
    this.tieOrder = new TieOrder(tieSeed, id);
  }

  setRateLimit(settings: RateLimitSettings): void {
    this.rateLimit = { ...settings };
    this.rateBucket.configure(this.rateLimit);
  }

  nextRecordSeq(): number {
    this.recordSeq += 1;
    return this.recordSeq;
  }

  activeKeyCount(): number {
    return [...this.apiKeys.values()].filter((k) => k.active).length;
  }

  /** Adds a key (already hashed); enforces the limit of active keys. */
  addKey(hash: string, hint: string, permissions: string[], now: number): ApiKey {
    this.assertRoomForActiveKey();
    this.keySeq += 1;
    const key: ApiKey = { id: `key_${this.keySeq}`, hash, hint, permissions, active: true, createdAt: now };
    this.apiKeys.set(key.id, key);
    return key;
  }

  setKeyActive(keyId: string, active: boolean): ApiKey {
    const key = this.requireKey(keyId);
    if (active && !key.active) this.assertRoomForActiveKey();
    key.active = active;
    return key;
  }

  requireKey(keyId: string): ApiKey {
    const key = this.apiKeys.get(keyId);
    if (!key)
      throw new CatalogApiError(CatalogErrorCode.NOT_FOUND, `No API key "${keyId}" in account "${this.id}".`);
    return key;
  }

  private assertRoomForActiveKey(): void {
    const active = this.activeKeyCount();
    if (active >= CatalogLimits.ACTIVE_API_KEYS) {
      throw new CatalogApiError(
        CatalogErrorCode.API_KEY_LIMIT_EXCEEDED,
        `An account can have at most ${CatalogLimits.ACTIVE_API_KEYS} active API keys.`,
        { current_count: active, suggestion: 'Deactivate or delete a key first.' },
      );
    }
  }
}
