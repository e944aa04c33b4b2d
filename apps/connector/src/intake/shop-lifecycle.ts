import { Injectable, Logger } from '@nestjs/common';
import { FailuresService } from '../platform/failures/failures.service.js';
import { ShopDataRegistry } from '../platform/reporting/shop-data-registry.js';
import { InstalledShopDirectory } from '../shops/installed-shop-directory.js';
import { ShopTokens } from '../shops/shop-tokens.js';
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

  async handle(shop: string, topic: LifecycleTopic): Promise<void> {
    switch (topic) {
      case 'app/uninstalled':
        await this.tokens.uninstalled(shop);
        this.logger.warn(
          `${shop} uninstalled the app: no more Shopify calls; its jobs wait, its sku map stays`,
        );
        return;
      case 'shop/redact': {
        // Redacted first: no new Shopify call or job starts for the shop while its tables empty.
        await this.tokens.redacted(shop);
        // The failures table is the platform's: purged here (a registry of the platform's own would be an import).
        const rows = (await this.shopData.purge(shop)) + (await this.failures.purgeShop(shop));
        // A shop that installed itself keeps only its domain in `shops` (no key, no mapping), marked redacted.
        await this.installed.forget(shop);
        this.logger.warn(
          `${shop} redacted: ${rows} rows purged from ${[...this.shopData.tables(), 'failures'].join(', ')}; the catalog's records are kept`,
        );
        return;
      }
      default:
        this.logger.log(`${topic} for ${shop}: the connector stores no customer data; nothing to do`);
    }
  }
}
