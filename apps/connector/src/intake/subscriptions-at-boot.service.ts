import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { Clock } from '#lib/clock';
import { ConcurrencyLimit } from '../platform/boot/concurrency-limit.js';
import type { ShopConfig } from '../platform/config/connector.config.js';
import { HttpSettings, OperationsSettings } from '../platform/config/settings.js';
import { jobWaitMs } from '../platform/failures/job-error.js';
import { Shops } from '../shops/shops.js';
import { SubscriptionRepair } from './subscription-repair.service.js';

/**
 * The boot's pass over every shop's subscriptions: in the background (a Shopify outage never stops
 * the connector from booting), at most `CONNECTOR_SHOP_CHECK_CONCURRENCY` shops at once (a shop
 * waiting out its back-off holds no turn), retrying with back-off. Each pass is `SubscriptionRepair`'s, so the
 * scheduled check (which also runs once at boot) waits for it and finds the topics subscribed:
 * one pass owns each shop's subscriptions at a time.
 */
@Injectable()
export class SubscriptionsAtBoot implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('SubscriptionsAtBoot');
  private stopped = false;
  /** The boot's passes, settled once each shop was subscribed or given up on (tests wait for it). */
  booted: Promise<void> = Promise.resolve();
  private readonly limit: ConcurrencyLimit;

  constructor(
    private readonly settings: HttpSettings,
    private readonly shops: Shops,
    private readonly clock: Clock,
    private readonly repair: SubscriptionRepair,
    operations: OperationsSettings,
  ) {
    this.limit = new ConcurrencyLimit(operations.shopCheckConcurrency);
  }

  onApplicationBootstrap(): void {
    if (this.settings.publicUrl === null) return;
    this.booted = Promise.all(this.shops.all.map((shop) => this.ensureWithRetries(shop))).then(
      () => undefined,
    );
  }

  onModuleDestroy(): void {
    this.stopped = true;
  }

  private async ensureWithRetries(shop: ShopConfig): Promise<void> {
    for (let attempt = 0; !this.stopped; attempt++) {
      try {
        await this.limit.run(() => this.repair.ensureShop(shop));
        return;
      } catch (error) {
        if (jobWaitMs(error) !== null) {
          // No token for the shop (needs_reauth, uninstalled): the scheduled check subscribes it later.
          this.logger.warn(`${shop.domain}: webhook subscriptions not checked (${String(error)})`);
          return;
        }
        const wait = Math.min(60_000, 1_000 * 2 ** attempt);
        this.logger.warn(
          `${shop.domain}: could not check webhook subscriptions (${String(error)}); again in ${wait} ms`,
        );
        await this.clock.sleep(wait);
      }
    }
  }
}
