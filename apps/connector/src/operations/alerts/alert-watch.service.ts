import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '#lib/clock';
import { AlertSettings } from '../../platform/config/settings.js';
import { OverviewService } from '../overview/overview.service.js';
import { type AlertMemory, debounce } from './alert-debounce.js';
import { AlertDeliveriesRepository, type SeenShop } from './alert-deliveries.repository.js';
import { AlertEnqueuer } from './alert-enqueuer.service.js';
import type { AlertShopState } from './alert-shop-state.entity.js';
import { AlertTargets } from './alert-targets.service.js';

/** Pending deliveries enqueued again per look at most (their job ids make it a no-op while they wait). */
const REQUEUE_LIMIT = 500;

/** What one look did: the shops looked at, the changes sent, the deliveries enqueued. */
export interface AlertCheckResult {
  shops: number;
  changes: Array<{ shop: string; from: string; to: string; deliveries: number }>;
  enqueued: number;
}

/**
 * Why: the scheduled look behind the alerts (`CONNECTOR_ALERT_CHECK_INTERVAL_MS`, one job per
 * interval across replicas). It reads every shop's state and reasons from the overview (the same
 * rules as `GET /admin/overview`, `OverviewService.overview`), applies the debounce to each shop
 * against what was sent last (`alert_shop_states`), stores each change that held with one
 * delivery per target told about the shop, and enqueues every delivery still pending: the new
 * ones, and any whose job the queue backend lost.
 */
@Injectable()
export class AlertWatch {
  private readonly logger = new Logger('Alerts');

  constructor(
    private readonly overview: OverviewService,
    private readonly deliveries: AlertDeliveriesRepository,
    private readonly targets: AlertTargets,
    private readonly enqueuer: AlertEnqueuer,
    private readonly settings: AlertSettings,
    private readonly clock: Clock,
  ) {}

  async check(): Promise<AlertCheckResult> {
    const view = await this.overview.overview();
    const rows = new Map((await this.deliveries.shopStates()).map((row) => [row.shop, row]));
    const now = this.clock.now();
    const changes: AlertCheckResult['changes'] = [];
    for (const shop of view.shops) {
      const seen: SeenShop = {
        shop: shop.shop,
        state: shop.state,
        cause: shop.reasons[0] ?? shop.state,
        reasons: shop.reasons,
      };
      const outcome = debounce(memoryOf(rows.get(shop.shop)), seen.state, now, this.settings.debounceMs);
      if (outcome.change === null) {
        await this.deliveries.observe(seen, outcome.memory, new Date(now));
        continue;
      }
      const targets = await this.targets.forShop(shop.shop);
      const ids = await this.deliveries.recordChange(seen, outcome.change, targets, new Date(now));
      if (ids === null) continue; // another look sent it
      changes.push({
        shop: shop.shop,
        from: outcome.change.from,
        to: outcome.change.to,
        deliveries: ids.length,
      });
      this.logger.log(
        `${shop.shop} is ${outcome.change.to} (was ${outcome.change.from}): ${seen.cause}; ${ids.length} alert(s) to send`,
      );
    }
    const pending = await this.deliveries.pendingIds(REQUEUE_LIMIT);
    for (const id of pending) await this.enqueuer.deliver(id);
    return { shops: view.shops.length, changes, enqueued: pending.length };
  }
}

function memoryOf(row: AlertShopState | undefined): AlertMemory | null {
  if (row === undefined) return null;
  return {
    notifiedState: row.notifiedState,
    pendingState: row.pendingState,
    pendingSince: row.pendingSince === null ? null : row.pendingSince.getTime(),
  };
}
