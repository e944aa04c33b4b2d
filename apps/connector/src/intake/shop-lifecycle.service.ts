import { Injectable, Logger } from '@nestjs/common';
import { FailuresService } from '../platform/failures/failures.service.js';
import { ShopDataRegistry } from '../platform/reporting/shop-data-registry.service.js';
import { InstalledShopDirectory } from '../shops/installed-shop-directory.service.js';
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
 * is answered and ignored: `ShopTokens` decides under the session row's lock and records it.
 */
@Injectable()
export class ShopLifecycle {
  private readonly logger = new Logger('ShopLifecycle');

  constructor(
    private readonly tokens: ShopTokens,
    private readonly shopData: ShopDataRegistry,
    private readonly failures: FailuresService,
    private readonly installed: InstalledShopDirectory,
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
        // The failures table is the platform's: purged here (a registry of the platform's own would be an import).
        const rows = (await this.shopData.purge(shop)) + (await this.failures.purgeShop(shop));
        // A shop that installed itself keeps only its domain in `shops` (no key, no mapping), marked redacted.
        await this.installed.forget(shop);
        this.logger.warn(
          `${shop} redacted: ${rows} rows purged from ${[...this.shopData.tables(), 'failures'].join(', ')}; the catalog's records are kept`,
        );
        return null;
      }
      default:
        this.logger.log(`${topic} for ${shop}: the connector stores no customer data; nothing to do`);
        return null;
    }
  }
}
