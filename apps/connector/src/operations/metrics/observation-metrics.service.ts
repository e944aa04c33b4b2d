import { Injectable, type OnModuleInit } from '@nestjs/common';
import { Observations } from '../../platform/reporting/observations.service.js';
import { ConnectorMetrics } from './connector-metrics.service.js';
import { ShopSeries, total } from './shop-series.service.js';

/** The counter families whose shop (or account) labels are bounded together. */
const SHOP_COUNTERS = 'write-backs';
const ACCOUNT_COUNTERS = 'catalog-calls';

/**
 * Turns what the parts report to the base `Observations` sink into Prometheus series: catalog
 * calls and 429s (from the catalog clients), and poll lag, write-backs and conflicts (reported
 * by the enrichment stage when it runs). Their shop and account labels are bounded
 * (`ShopSeries`): the poll lag keeps the shops furthest behind, the counters the first shops
 * (accounts) they count.
 */
@Injectable()
export class ObservationMetrics implements OnModuleInit {
  /** Each shop's poll lag as last reported (one number per shop polled). */
  private readonly lags = new Map<string, number>();

  constructor(
    private readonly observations: Observations,
    private readonly metrics: ConnectorMetrics,
    private readonly series: ShopSeries,
  ) {}

  onModuleInit(): void {
    const m = this.metrics;
    const shop = (name: string) => this.series.counterLabel(SHOP_COUNTERS, name);
    const account = (name: string) => this.series.counterLabel(ACCOUNT_COUNTERS, name);
    m.gauge(
      'connector_enrichment_poll_lag_seconds',
      'Seconds the enrichment poll is behind (now minus its checkpoint), per shop, as last reported.',
      ['shop'],
      async () =>
        this.series.keep(
          [...this.lags].map(([name, seconds]) => ({ labels: { shop: name }, value: seconds })),
          'shop',
          total,
          'max',
        ),
    );
    this.observations.subscribe({
      catalogCall: ({ account: id, endpoint, status }) =>
        m.catalogCalls.inc({
          account: account(id),
          endpoint,
          status: status === null ? 'none' : String(status),
        }),
      catalogRateLimited: ({ account: id, endpoint }) =>
        m.catalogRateLimited.inc({ account: account(id), endpoint }),
      pollLag: ({ shop: name, seconds }) => this.lags.set(name, seconds),
      writeBack: ({ shop: name, outcome }) => m.writeBacks.inc({ shop: shop(name), outcome }),
      conflict: ({ shop: name, kind }) => m.conflicts.inc({ shop: shop(name), kind }),
      failuresResolved: ({ jobKind, count }) => m.failureResolved(jobKind, 'resolved', count),
      queueStateLost: () => m.queueStateLost.inc(),
    });
  }
}
