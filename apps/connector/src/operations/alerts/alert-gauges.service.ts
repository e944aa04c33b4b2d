import { Injectable, type OnModuleInit } from '@nestjs/common';
import { Clock } from '#lib/clock';
import { AlertSettings } from '../../platform/config/settings.js';
import { ConnectorMetrics, type GaugeReading } from '../metrics/connector-metrics.service.js';
import { ShopSeries } from '../metrics/shop-series.service.js';
import { AlertDeliveriesRepository } from './alert-deliveries.repository.js';
import type { AlertDeliveryState } from './alert-delivery.entity.js';

const DELIVERY_STATES: readonly AlertDeliveryState[] = ['pending', 'delivered', 'failed', 'cancelled'];
const SHOP_HEALTH = ['healthy', 'degraded', 'failing'] as const;
/** A shop not looked at for this many intervals (gone, or the looks stopped) is left out. */
const STALE_LOOKS = 10;

/**
 * Why: what the alerts know, for Prometheus (and `deploy/prometheus/alerts.yml`): each shop's
 * overview state as the last scheduled look saw it (across replicas, from `alert_shop_states`;
 * a shop not looked at for ten intervals is left out, so a gone shop or stopped looks go quiet),
 * and the alert deliveries by state, so a receiver that stopped taking them is seen too.
 */
@Injectable()
export class AlertGauges implements OnModuleInit {
  constructor(
    private readonly metrics: ConnectorMetrics,
    private readonly deliveries: AlertDeliveriesRepository,
    private readonly settings: AlertSettings,
    private readonly clock: Clock,
    private readonly series: ShopSeries,
  ) {}

  onModuleInit(): void {
    this.metrics.gauge(
      'connector_shop_health',
      "Each shop's overview state as the alerts' last look saw it: 1 for its current one (healthy, degraded, failing), 0 for the others.",
      ['shop', 'state'],
      async () => {
        const since = this.clock.now() - STALE_LOOKS * this.settings.checkIntervalMs;
        const readings = (await this.deliveries.shopStates())
          .filter((row) => row.checkedAt.getTime() >= since)
          .flatMap((row) =>
            SHOP_HEALTH.map((state) => ({
              labels: { shop: row.shop, state },
              value: row.seenState === state ? 1 : 0,
            })),
          );
        // The failing shops first, then the degraded ones (`_other` counts the rest by state).
        const weight = (own: GaugeReading) =>
          own.reduce(
            (w, r) =>
              w + (r.labels.state === 'failing' ? 2 : r.labels.state === 'degraded' ? 1 : 0) * r.value,
            0,
          );
        return this.series.keep(readings, 'shop', weight);
      },
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
