import { Injectable, type OnModuleInit } from '@nestjs/common';
import { ConnectorMetrics } from '../metrics/connector-metrics.service.js';
import { AlertDeliveriesRepository } from './alert-deliveries.repository.js';
import type { AlertDeliveryState } from './alert-delivery.entity.js';

const DELIVERY_STATES: readonly AlertDeliveryState[] = ['pending', 'delivered', 'failed', 'cancelled'];
const SHOP_HEALTH = ['healthy', 'degraded', 'failing'] as const;

/**
 * Why: what the alerts know, for Prometheus (and `deploy/prometheus/alerts.yml`): each shop's
 * overview state as the last scheduled look saw it (across replicas, from `alert_shop_states`),
 * and the alert deliveries by state, so a receiver that stopped taking them is seen too.
 */
@Injectable()
export class AlertGauges implements OnModuleInit {
  constructor(
    private readonly metrics: ConnectorMetrics,
    private readonly deliveries: AlertDeliveriesRepository,
  ) {}

  onModuleInit(): void {
    this.metrics.gauge(
      'connector_shop_health',
      "Each shop's overview state as the alerts' last look saw it: 1 for its current one (healthy, degraded, failing), 0 for the others.",
      ['shop', 'state'],
      async () =>
        (await this.deliveries.shopStates()).flatMap((row) =>
          SHOP_HEALTH.map((state) => ({
            labels: { shop: row.shop, state },
            value: row.seenState === state ? 1 : 0,
          })),
        ),
    );
    this.metrics.gauge(
      'connector_alert_deliveries',
      'Alert deliveries kept (CONNECTOR_ALERT_HISTORY_DAYS), by state: pending (being sent or retried), delivered, failed (in the failures inbox), cancelled (target removed).',
      ['state'],
      async () => {
        const counts = new Map((await this.deliveries.countsByState()).map((row) => [row.state, row.count]));
        return DELIVERY_STATES.map((state) => ({ labels: { state }, value: counts.get(state) ?? 0 }));
      },
    );
  }
}
