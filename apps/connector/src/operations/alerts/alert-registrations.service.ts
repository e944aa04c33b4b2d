import { Injectable, type OnModuleInit } from '@nestjs/common';
import { AlertSettings } from '../../platform/config/settings.js';
import { ReplayRegistry } from '../../platform/failures/replay-registry.service.js';
import { JobName } from '../../platform/queues/queue-names.js';
import { QueueRecoveryRegistry } from '../../platform/queues/queue-recovery-registry.service.js';
import { RetentionRegistry } from '../../platform/reporting/retention-registry.service.js';
import { ShopDataRegistry } from '../../platform/reporting/shop-data-registry.service.js';
import { StoredSecrets } from '../../shops/stored-secrets.service.js';
import { AlertDeliveriesRepository } from './alert-deliveries.repository.js';
import { alertDeliverySubject } from './alert-delivery.job.js';
import { AlertEnqueuer } from './alert-enqueuer.service.js';
import { AlertTargetsRepository } from './alert-targets.repository.js';

/** Pending deliveries enqueued again after the queue backend lost its jobs, at most. */
const RECOVERY_LIMIT = 10_000;

/**
 * Why: the alerts plug into the platform's registries at module init, like every feature: a
 * failed delivery is replayed from the failures inbox (pending again, sent again), old
 * deliveries are pruned by the retention job (`CONNECTOR_ALERT_HISTORY_DAYS`), `shop/redact`
 * purges a shop's targets, deliveries and state, the pending deliveries are enqueued again
 * when the queue backend lost its jobs, and the targets' encrypted URLs and secrets are
 * re-encrypted and counted with the shops' secrets on a key rotation (`StoredSecrets`).
 */
@Injectable()
export class AlertRegistrations implements OnModuleInit {
  constructor(
    private readonly replays: ReplayRegistry,
    private readonly retention: RetentionRegistry,
    private readonly shopData: ShopDataRegistry,
    private readonly recovery: QueueRecoveryRegistry,
    private readonly secrets: StoredSecrets,
    private readonly deliveries: AlertDeliveriesRepository,
    private readonly targets: AlertTargetsRepository,
    private readonly enqueuer: AlertEnqueuer,
    private readonly settings: AlertSettings,
  ) {}

  onModuleInit(): void {
    this.replays.register(
      JobName.ALERT_DELIVERY,
      async (failure) => {
        const id = failure.payload.deliveryId;
        if (typeof id !== 'string') throw new Error('An alert failure names no delivery');
        await this.deliveries.reopen(id);
        await this.enqueuer.deliver(id, failure.id);
      },
      (payload) =>
        typeof payload.deliveryId === 'string' ? alertDeliverySubject(payload.deliveryId) : undefined,
    );
    this.retention.register({
      name: 'alert_deliveries',
      ageMs: this.settings.historyMs,
      prune: (before) => this.deliveries.pruneBefore(before),
    });
    this.shopData.register({
      tables: ['alert_deliveries', 'alert_shop_states', 'alert_targets'],
      purge: async (shop) => (await this.deliveries.purgeShop(shop)) + (await this.targets.purgeShop(shop)),
    });
    this.secrets.register(this.targets);
    this.recovery.work({
      name: 'alert-deliveries',
      requeue: async () => {
        const ids = await this.deliveries.pendingIds(RECOVERY_LIMIT);
        for (const id of ids) await this.enqueuer.deliver(id);
        return ids.length;
      },
    });
  }
}
