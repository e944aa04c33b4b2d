import { Injectable, type OnModuleInit } from '@nestjs/common';
import { DRIFT_KINDS } from '../../drift/model/drift-finding.js';
import { DriftReportsRepository } from '../../drift/store/drift-reports.repository.js';
import { Shops } from '../../shops/shops.js';
import { ConnectorMetrics } from './connector-metrics.service.js';
import { ShopSeries, total } from './shop-series.service.js';

/**
 * Why: the drift report in `/metrics`, read at scrape time from the stored reports (so every
 * replica answers the same): each shop's open findings by kind (its latest report's, not yet
 * repaired; 0 for a kind it did not find), the reports kept per shop, and the repairs made by
 * kind and outcome.
 */
@Injectable()
export class DriftGauges implements OnModuleInit {
  constructor(
    private readonly metrics: ConnectorMetrics,
    private readonly reports: DriftReportsRepository,
    private readonly shops: Shops,
    private readonly series: ShopSeries,
  ) {}

  onModuleInit(): void {
    this.metrics.gauge(
      'connector_drift_findings_open',
      "Findings of each shop's latest drift report not repaired yet, by kind.",
      ['shop', 'kind'],
      async () => {
        const { open } = await this.reports.metricCounts();
        const shops = new Set([...this.shops.all.map((s) => s.domain), ...open.map((r) => r.shop)]);
        const counts = new Map(open.map((r) => [`${r.shop}\n${r.kind}`, r.count]));
        const readings = [...shops].flatMap((shop) =>
          DRIFT_KINDS.map((kind) => ({
            labels: { shop, kind },
            value: counts.get(`${shop}\n${kind}`) ?? 0,
          })),
        );
        return this.series.keep(readings, 'shop', total);
      },
    );
    this.metrics.gauge(
      'connector_drift_reports',
      'Drift reports kept (scheduled and asked for), by shop.',
      ['shop'],
      async () =>
        this.series.keep(
          (await this.reports.metricCounts()).reports.map((r) => ({
            labels: { shop: r.shop },
            value: r.count,
          })),
          'shop',
          total,
        ),
    );
    this.metrics.gauge(
      'connector_drift_repairs',
      'Findings an operator repaired (in the reports kept), by shop, kind and outcome.',
      ['shop', 'kind', 'outcome'],
      async () =>
        this.series.keep(
          (await this.reports.metricCounts()).repairs.map((r) => ({
            labels: { shop: r.shop, kind: r.kind, outcome: r.outcome },
            value: r.count,
          })),
          'shop',
          total,
        ),
    );
  }
}
