import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '#lib/clock';
import { FailuresService } from '../platform/failures/failures.service.js';
import { ShopDataRegistry } from '../platform/reporting/shop-data-registry.service.js';
import { InstalledShopDirectory } from '../shops/installed-shop-directory.service.js';
import { ShopSessionRepository } from '../shops/shop-sessions.repository.js';
import { ShopTokens } from '../shops/shop-tokens.service.js';
import type { LifecycleTopic } from './webhook-headers.js';

/**
 * Why: the app's lifecycle deliveries, verified like any other, act at once and store nothing:
 * - `app/uninstalled`: the shop's tokens are forgotten and its jobs wait (no Shopify call, no
 *   failure row); its sku map and history stay for a reinstall;
 * - `shop/redact` (48 hours after an uninstall): every table keyed by the shop is purged (each
 *   owner's `ShopDataRegistry` entry; a self-installed shop's `shops` row keeps only its domain);
 *   the catalog's records are the merchant's and are kept;
 * - `customers/data_request`, `customers/redact`: the connector stores nothing about customers
 *   (products only), so there is nothing to report or erase.
 * An uninstall or redact older than the shop's current installation (a redelivery, a late one)
 * is answered and ignored: `ShopTokens` decides under the session row's lock and records it. The
 * redact's purge comes after the row says `redacted` (so no job starts meanwhile), and holds that
 * row's lock while it runs, checking again that it still says so: a reinstall that came in
 * between refuses the purge (recorded on the row, its reason answered), and one that comes in
 * during it waits for it (`ShopTokens.installed` takes the same lock).
 */
@Injectable()
export class ShopLifecycle {
  private readonly logger = new Logger('ShopLifecycle');

  constructor(
    private readonly tokens: ShopTokens,
    private readonly shopData: ShopDataRegistry,
    private readonly failures: FailuresService,
    private readonly installed: InstalledShopDirectory,
    private readonly sessions: ShopSessionRepository,
    private readonly clock: Clock,
  ) {}

  /**
   * Acts on the delivery triggered at `triggeredAt` (null: unknown); resolves to why it was
   * ignored (older than the shop's current installation), or null once acted on.
   */
  async handle(shop: string, topic: LifecycleTopic, triggeredAt: Date | null): Promise<string | null> {
    switch (topic) {
      case 'app/uninstalled': {
        const ignored = await this.tokens.uninstalled(shop, triggeredAt);
        if (ignored !== null) return ignored;
        this.logger.warn(
          `${shop} uninstalled the app: no more Shopify calls; its jobs wait, its sku map stays`,
        );
        return null;
      }
      case 'shop/redact': {
        // Redacted first: no new Shopify call or job starts for the shop while its tables empty.
        const ignored = await this.tokens.redacted(shop, triggeredAt);
        if (ignored !== null) return ignored;
        return this.purgeWhileRedacted(shop);
      }
      default:
        this.logger.log(`${topic} for ${shop}: the connector stores no customer data; nothing to do`);
        return null;
    }
  }

  /**
   * The purge, under the session row's lock, while the row still says `redacted`; else why not
   * (recorded on the row as an ignored delivery). A shop without a row never installed: it has
   * no installation to keep, and is purged as it is.
   */
  private async purgeWhileRedacted(shop: string): Promise<string | null> {
    if ((await this.sessions.find(shop)) === null) {
      await this.purge(shop);
      return null;
    }
    const refused = await this.sessions.locked(shop, async (row) => {
      if (row.state !== 'redacted') {
        const at = new Date(this.clock.now()).toISOString();
        const since = row.installedAt === null ? '' : ` at ${row.installedAt.toISOString()}`;
        const reason = `came before the shop's installation${since} (now ${row.state}): its data is kept, nothing purged`;
        return {
          changes: {
            ignoredDeliveries: row.ignoredDeliveries + 1,
            lastIgnoredDelivery: `shop/redact ${reason}; refused at ${at}`,
          },
          result: reason,
        };
      }
      await this.purge(shop);
      return { changes: null, result: null };
    });
    if (refused !== null) this.logger.warn(`${shop}: shop/redact ${refused}`);
    return refused;
  }

  /** Every table keyed by the shop emptied of it (the caller holds the evidence that it may). */
  private async purge(shop: string): Promise<void> {
    // The failures table is the platform's: purged here (a registry of the platform's own would be an import).
    const rows = (await this.shopData.purge(shop)) + (await this.failures.purgeShop(shop));
    // A shop that installed itself keeps only its domain in `shops` (no key, no mapping), marked redacted.
    await this.installed.forget(shop);
    this.logger.warn(
      `${shop} redacted: ${rows} rows purged from ${[...this.shopData.tables(), 'failures'].join(', ')}; the catalog's records are kept`,
    );
  }
}
