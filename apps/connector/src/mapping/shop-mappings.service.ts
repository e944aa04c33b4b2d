import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { Clock } from '#lib/clock';
import { CatalogClients } from '../clients/catalog/catalog-clients.service.js';
import { SHOP_MAPPING_FILES } from '../connector.tokens.js';
import { ConcurrencyLimit } from '../platform/boot/concurrency-limit.js';
import { OperationsSettings, SyncSettings } from '../platform/config/settings.js';
import type { ShopConfig } from '../platform/config/shop-config.js';
import { turnOffset } from '../platform/queues/schedule-spread.js';
import { Shops } from '../shops/shops.js';
import { type LoadedMapping, loadShopMapping, type ShopMappingFiles } from './load-shop-mappings.js';
import { checkMappingAgainstCatalog } from './mapping-boot-check.js';
import type { ProductScope } from './model/mapping-file.js';
import { MappingError } from './model/mapping-problem.js';
import type { ValidatedMapping } from './validated-mapping.js';

/** How long a job waits while the shop's first check is under way. */
const BOOT_CHECK_WAIT_MS = 1_000;

/**
 * Where a shop's mapping stands. `unconfigured`: no mapping file (nothing to sync into the
 * catalog). `pending`: not yet checked against the account, or the catalog could not be reached
 * (`lastError`). `ready`: checked; sync uses `mapping`. `invalid`: the file does not fit the
 * account (`error` names each entry); re-checked, since the account's definitions may change.
 */
export type ShopMappingState =
  | { status: 'unconfigured' }
  | { status: 'pending'; path: string; checks: number; lastError: string | null }
  | { status: 'ready'; path: string; mapping: ValidatedMapping; checkedAt: number }
  | { status: 'invalid'; path: string; error: MappingError; checkedAt: number };

/**
 * Each shop's mapping, checked against its catalog account in the background: the connector
 * starts (and takes webhooks) whatever the catalog does, and a shop's sync waits (`waitFor`)
 * until its check passes. At most `CONNECTOR_SHOP_CHECK_CONCURRENCY` checks run at once (a
 * shop's ready listeners within its check), the others wait their turn. Shops not ready are re-checked every `CONNECTOR_MAPPING_RECHECK_MS`;
 * `recheck` checks one now (drift, an operator's request).
 */
@Injectable()
export class ShopMappings implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('ShopMappings');
  private readonly states = new Map<string, ShopMappingState>();
  private readonly running = new Map<string, Promise<ShopMappingState>>();
  private readonly refreshTimers = new Map<string, NodeJS.Timeout>();
  private readonly readyListeners: Array<(shop: string, mapping: ValidatedMapping) => Promise<void>> = [];
  private stopped = false;
  /** Every served shop's parsed file: the boot's, then those of shops that joined (`adopt`). */
  private readonly files: Map<string, LoadedMapping>;
  /** Shops whose check loop runs. */
  private readonly looping = new Set<string>();
  /** At most `CONNECTOR_SHOP_CHECK_CONCURRENCY` checks at once: 200 shops booting do not check together. */
  private readonly checks: ConcurrencyLimit;

  constructor(
    @Inject(SHOP_MAPPING_FILES) files: ShopMappingFiles,
    private readonly clients: CatalogClients,
    private readonly clock: Clock,
    private readonly settings: SyncSettings,
    shops: Shops,
    operations: OperationsSettings,
  ) {
    this.checks = new ConcurrencyLimit(operations.shopCheckConcurrency);
    this.files = new Map(files);
    shops.watch((shop) => void this.adopt(shop));
    for (const shop of shops.all) {
      const loaded = files.get(shop.domain);
      this.states.set(
        shop.domain,
        loaded
          ? { status: 'pending', path: loaded.path, checks: 0, lastError: null }
          : { status: 'unconfigured' },
      );
    }
  }

  onApplicationBootstrap(): void {
    for (const shop of this.files.keys()) void this.checkLoop(shop);
  }

  onModuleDestroy(): void {
    this.stopped = true;
    for (const timer of this.refreshTimers.values()) clearTimeout(timer);
    this.refreshTimers.clear();
  }

  /** The shop's mapping state (`unconfigured` for a shop this connector does not serve). */
  state(shop: string): ShopMappingState {
    return this.states.get(shop) ?? { status: 'unconfigured' };
  }

  /**
   * The shop's product scope as its file says, checked against the account or not yet (the
   * webhook subscriptions and the collection deliveries need it from boot on).
   */
  scopeOf(shop: string): ProductScope | null {
    return this.files.get(shop)?.file.scope ?? null;
  }

  /** The checked mapping a sync of the shop uses, or null when it has none (yet). */
  mapping(shop: string): ValidatedMapping | null {
    const state = this.state(shop);
    return state.status === 'ready' ? state.mapping : null;
  }

  /**
   * Null when the shop's sync may go (mapping ready, or no mapping file); otherwise how long its
   * jobs wait before looking again (ms): briefly while the boot check is under way, else until
   * the next check.
   */
  waitFor(shop: string): number | null {
    const state = this.state(shop);
    if (state.status === 'ready' || state.status === 'unconfigured') return null;
    const { mappingRecheckMs } = this.settings;
    return state.status === 'pending' && state.checks === 0
      ? Math.min(BOOT_CHECK_WAIT_MS, mappingRecheckMs)
      : mappingRecheckMs;
  }

  /**
   * Called after every check that found the mapping ready (at boot, and at each refresh of the
   * account's definitions): the sku map compares its records' configuration with it (drift).
   */
  onReady(listener: (shop: string, mapping: ValidatedMapping) => Promise<void>): void {
    this.readyListeners.push(listener);
  }

  /** Checks the shop's mapping against its catalog account now (one check at a time per shop). */
  recheck(shop: string): Promise<ShopMappingState> {
    const loaded = this.files.get(shop);
    if (!loaded) return Promise.resolve(this.state(shop));
    const running = this.running.get(shop);
    if (running) return running;
    const check = this.checks
      .run(() => this.check(shop, loaded.path))
      .finally(() => this.running.delete(shop));
    this.running.set(shop, check);
    return check;
  }

  /**
   * A shop that joined (it installed the app) or whose file or catalog key changed: its file is
   * read (its own, or `CONNECTOR_DEFAULT_MAPPING_FILE`), and checked once it has a catalog key.
   * A file that cannot be read or is refused leaves the shop `invalid`, its sync waiting.
   */
  async adopt(shop: ShopConfig): Promise<ShopMappingState> {
    const path = shop.mappingFile;
    if (path === null) {
      this.files.delete(shop.domain);
      this.states.set(shop.domain, { status: 'unconfigured' });
      return this.state(shop.domain);
    }
    try {
      this.files.set(shop.domain, await loadShopMapping(shop.domain, path));
    } catch (error) {
      this.files.delete(shop.domain);
      const refused =
        error instanceof MappingError
          ? error
          : new MappingError([{ path: 'file', message: `cannot be read (${describe(error)})` }], path);
      this.logger.error(`${shop.domain}: sync waits: ${refused.message}`);
      this.states.set(shop.domain, { status: 'invalid', path, error: refused, checkedAt: this.clock.now() });
      return this.state(shop.domain);
    }
    this.states.set(shop.domain, { status: 'pending', path, checks: 0, lastError: null });
    void this.checkLoop(shop.domain);
    return this.state(shop.domain);
  }

  /**
   * Checks at boot, then again every `mappingRecheckMs` while the shop is not ready, and every
   * `mappingRefreshMs` once it is (the account's definitions change in the portal). A shop
   * without a catalog key is not checked: setting its key adopts it again.
   */
  private async checkLoop(shop: string): Promise<void> {
    if (this.looping.has(shop)) return;
    this.looping.add(shop);
    try {
      while (!this.stopped) {
        if (!this.clients.hasKey(shop)) {
          const state = this.state(shop);
          if (state.status === 'pending')
            this.states.set(shop, { ...state, lastError: 'no catalog API key yet' });
          return;
        }
        const state = await this.recheck(shop);
        if (this.stopped) return;
        if (state.status === 'ready') return this.scheduleRefresh(shop);
        await this.clock.sleep(this.settings.mappingRecheckMs);
      }
    } finally {
      this.looping.delete(shop);
    }
  }

  /**
   * The next refresh of a ready mapping, at the shop's turn of `CONNECTOR_MAPPING_REFRESH_MS` (a
   * fixed place in the period, a hash of its domain: 200 shops checked at boot are not refreshed
   * together, each still once a period): a timer of its own (unref'd, cleared at shutdown), so a
   * long interval never holds the process open.
   */
  private scheduleRefresh(shop: string): void {
    const period = this.settings.mappingRefreshMs;
    const since =
      (((this.clock.now() - turnOffset('mapping-refresh', shop, period)) % period) + period) % period;
    const timer = setTimeout(() => {
      this.refreshTimers.delete(shop);
      void this.checkLoop(shop);
    }, period - since);
    timer.unref();
    this.refreshTimers.set(shop, timer);
  }

  private async check(shop: string, path: string): Promise<ShopMappingState> {
    const loaded = this.files.get(shop);
    if (!loaded) return this.state(shop);
    const { client } = this.clients.forShop(shop);
    const result = await checkMappingAgainstCatalog(loaded.file, client, path).catch((error: unknown) => ({
      status: 'catalog-unavailable' as const,
      error,
    }));
    const previous = this.state(shop);
    const now = this.clock.now();
    let next: ShopMappingState;
    if (result.status === 'ready') {
      next = { status: 'ready', path, mapping: result.mapping, checkedAt: now };
      if (previous.status !== 'ready') {
        this.logger.log(`${shop}: mapping ${path} checked against the catalog account: sync may run`);
        for (const warning of result.mapping.warnings)
          this.logger.warn(`${shop}: mapping ${path}: ${warning.path}: ${warning.message}`);
      }
    } else if (result.status === 'invalid') {
      next = { status: 'invalid', path, error: result.error, checkedAt: now };
      if (previous.status !== 'invalid' || previous.error.message !== result.error.message)
        this.logger.error(`${shop}: sync waits: ${result.error.message}`);
    } else {
      const reason = describe(result.error);
      const checks = previous.status === 'pending' ? previous.checks + 1 : 1;
      // A mapping once checked stays in force while the catalog cannot be reached.
      if (previous.status === 'ready' || previous.status === 'invalid') return previous;
      next = { status: 'pending', path, checks, lastError: reason };
      if (checks === 1 && !this.stopped)
        this.logger.warn(
          `${shop}: the catalog could not be reached to check mapping ${path} (${reason}): sync waits`,
        );
    }
    this.states.set(shop, next);
    if (next.status === 'ready') await this.announceReady(shop, next.mapping);
    return next;
  }

  private async announceReady(shop: string, mapping: ValidatedMapping): Promise<void> {
    for (const listener of this.readyListeners) {
      await listener(shop, mapping).catch((error: unknown) =>
        this.logger.error(`${shop}: after the mapping check: ${describe(error)}`),
      );
    }
  }
}

function describe(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : error instanceof Error ? error.message : String(error);
}
