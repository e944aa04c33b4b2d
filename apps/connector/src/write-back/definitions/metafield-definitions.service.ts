import { Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import {
  createMetafieldDefinition,
  findMetafieldDefinition,
} from '../../clients/shopify/metafield-definition-calls.js';
import { ShopifyAdmin } from '../../clients/shopify/shopify-admin.service.js';
import type { ResolvedWriteBackEntry } from '../../mapping/index.js';
import { ShopMappings } from '../../mapping/shop-mappings.service.js';
import type { ValidatedMapping } from '../../mapping/validated-mapping.js';
import { SyncSettings } from '../../platform/config/settings.js';
import { ShopModes } from '../../shops/shop-modes.service.js';
import { definitionAction, ownerTypeOf } from './definition-check.js';

/** What the check found for one metafield target. */
export interface DefinitionOutcome {
  path: string;
  outcome: 'created' | 'exists' | 'stopped' | 'failed' | 'planned';
  message?: string;
}

/**
 * Why: the write-back's metafields are only useful to a merchant with a definition. After each
 * check that finds a shop's mapping ready (at boot, at each refresh), every metafield target of
 * its `writeBack` gets its definition if it has none (`definitionAction`). A target whose existing
 * definition has another type is stopped, only that one, with a message in the log and on every
 * push of the shop (`stopped`); it goes again once a later check finds the types agree. A
 * definition that could not be created (a Shopify error, a missing scope) stops nothing: the
 * values are still written, privately, and it is tried again after `CONNECTOR_MAPPING_RECHECK_MS`,
 * twice as long each time up to `CONNECTOR_MAPPING_REFRESH_MS` (a shop checked before it installed
 * the app gets its definitions soon after the install, not at the next refresh). A shop in
 * `shadow` sends no write: a missing definition is `planned` (logged), and made when the shop
 * goes live (`GoLive` asks again) or at a later check that finds it live.
 */
@Injectable()
export class MetafieldDefinitions implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('MetafieldDefinitions');
  private readonly stoppedByShop = new Map<string, ReadonlyMap<string, string>>();
  /** Per shop, the pending retry of definitions that could not be made, and its delay. */
  private readonly retries = new Map<string, { timer: NodeJS.Timeout; delayMs: number }>();
  private closed = false;

  constructor(
    private readonly mappings: ShopMappings,
    private readonly shopify: ShopifyAdmin,
    private readonly settings: SyncSettings,
    private readonly modes: ShopModes,
  ) {}

  onModuleInit(): void {
    this.mappings.onReady((shop, mapping) => this.ensure(shop, mapping).then(() => undefined));
  }

  onModuleDestroy(): void {
    this.closed = true;
    for (const { timer } of this.retries.values()) clearTimeout(timer);
    this.retries.clear();
  }

  /** Checks the shop's definitions again now (a shop that went live makes those it planned). */
  async recheck(shop: string): Promise<DefinitionOutcome[]> {
    const mapping = this.mappings.mapping(shop);
    return mapping ? this.ensure(shop, mapping) : [];
  }

  /** The shop's stopped targets: entry path -> why. */
  stopped(shop: string): ReadonlyMap<string, string> {
    return this.stoppedByShop.get(shop) ?? new Map();
  }

  /** Checks (and creates) the definition of every metafield target of the shop's mapping. */
  async ensure(shop: string, mapping: Pick<ValidatedMapping, 'writeBack'>): Promise<DefinitionOutcome[]> {
    const outcomes: DefinitionOutcome[] = [];
    const stopped = new Map<string, string>();
    for (const entry of mapping.writeBack) {
      if (entry.target.kind !== 'metafield') continue;
      const outcome = await this.ensureOne(shop, entry).catch(
        (error: unknown): DefinitionOutcome => ({
          path: entry.path,
          outcome: 'failed',
          message: error instanceof Error ? error.message : String(error),
        }),
      );
      outcomes.push(outcome);
      if (outcome.outcome === 'stopped') stopped.set(entry.path, outcome.message ?? '');
      if (outcome.outcome === 'stopped') this.logger.error(`${shop}: ${outcome.message}`);
      if (outcome.outcome === 'failed')
        this.logger.warn(
          `${shop}: ${entry.path}: the metafield definition could not be made sure of: ${outcome.message}`,
        );
      if (outcome.outcome === 'created')
        this.logger.log(`${shop}: ${entry.path}: metafield definition created`);
      if (outcome.outcome === 'planned')
        this.logger.log(`${shop}: ${entry.path}: metafield definition planned (the shop is in shadow)`);
    }
    this.stoppedByShop.set(shop, stopped);
    this.retryLater(
      shop,
      mapping,
      outcomes.some((o) => o.outcome === 'failed' || o.outcome === 'planned'),
    );
    return outcomes;
  }

  /** After a failed definition: once more later, backing off up to the mapping refresh; none once all are made. */
  private retryLater(shop: string, mapping: Pick<ValidatedMapping, 'writeBack'>, failed: boolean): void {
    const previous = this.retries.get(shop);
    if (previous) clearTimeout(previous.timer);
    this.retries.delete(shop);
    if (!failed || this.closed) return;
    const delayMs = previous
      ? Math.min(previous.delayMs * 2, this.settings.mappingRefreshMs)
      : this.settings.mappingRecheckMs;
    const timer = setTimeout(() => {
      void this.ensure(shop, mapping).catch(() => undefined);
    }, delayMs);
    timer.unref();
    this.retries.set(shop, { timer, delayMs });
  }

  private async ensureOne(shop: string, entry: ResolvedWriteBackEntry): Promise<DefinitionOutcome> {
    if (entry.target.kind !== 'metafield') return { path: entry.path, outcome: 'exists' };
    const admin = this.shopify.forShop(shop);
    const found = await findMetafieldDefinition(admin, {
      ownerType: ownerTypeOf(entry),
      namespace: entry.target.namespace,
      key: entry.target.key,
    });
    const action = definitionAction(entry, found);
    if (action.kind === 'exists') return { path: entry.path, outcome: 'exists' };
    if (action.kind === 'stop') return { path: entry.path, outcome: 'stopped', message: action.message };
    if ((await this.modes.modeOf(shop)) === 'shadow') {
      return {
        path: entry.path,
        outcome: 'planned',
        message: 'the shop is in shadow: no definition is created',
      };
    }
    const errors = await createMetafieldDefinition(admin, action.input);
    if (errors.length > 0) {
      const message = errors.map((e) => `${e.code ?? 'ERROR'}: ${e.message}`).join('; ');
      return { path: entry.path, outcome: 'failed', message };
    }
    return { path: entry.path, outcome: 'created' };
  }
}
