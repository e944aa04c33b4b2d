import type { ModuleRef } from '@nestjs/core';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '#lib/clock';
import type { CatalogClients } from '../../clients/catalog/catalog-clients.service.js';
import type { CatalogGate } from '../../clients/catalog/catalog-gate.service.js';
import { DRIFT_KINDS } from '../../drift/model/drift-finding.js';
import type { DriftReportsRepository } from '../../drift/store/drift-reports.repository.js';
import type { AlertSettings, OperationsSettings } from '../../platform/config/settings.js';
import type { ShopConfig } from '../../platform/config/shop-config.js';
import type { FailuresService } from '../../platform/failures/failures.service.js';
import type { DependencyHealth } from '../../platform/reporting/dependency-health.service.js';
import { Observations } from '../../platform/reporting/observations.service.js';
import type { ShopSessionRepository } from '../../shops/shop-sessions.repository.js';
import { Shops } from '../../shops/shops.js';
import type { AlertDeliveriesRepository } from '../alerts/alert-deliveries.repository.js';
import { AlertGauges } from '../alerts/alert-gauges.service.js';
import { ConnectorMetrics } from './connector-metrics.service.js';
import { DriftGauges } from './drift-gauges.service.js';
import { ObservationMetrics } from './observation-metrics.service.js';
import { OTHER_SHOPS, ShopSeries, total } from './shop-series.service.js';
import { StateGauges } from './state-gauges.service.js';

/** Every metric of a connector serving `count` shops (each its own catalog account), a few of them in trouble. */
async function scrape(count: number, limit = 20) {
  const now = Date.UTC(2026, 0, 1);
  const domains = Array.from({ length: count }, (_, i) => `shop-${String(i).padStart(3, '0')}.myshopify.com`);
  const accounts = domains.map((_, i) => ({
    id: `http://catalog#key${i}`,
    shops: [domains[i]],
    client: { breaker: { state: i === 3 ? 'open' : 'closed' } },
  }));
  const metrics = new ConnectorMetrics();
  const series = new ShopSeries({ metricsShopSeries: limit } as OperationsSettings);
  const shops = new Shops(domains.map((domain) => ({ domain }) as ShopConfig));
  const sessions = domains.map((shop, i) => ({
    shop,
    state: i === 5 ? 'needs_reauth' : 'active',
    refreshCount: i % 7,
    subscriptionsRecreated: i === 9 ? 2 : 0,
  }));
  new StateGauges(
    metrics,
    {
      openCounts: async () => [
        { shop: domains[1], jobKind: 'sync-product', count: 4 },
        { shop: '*', jobKind: 'enrichment-poll', count: 1 },
        ...domains.map((shop) => ({ shop, jobKind: 'drift-report', count: 1 })),
      ],
    } as unknown as FailuresService,
    { all: () => accounts } as unknown as CatalogClients,
    {
      get: () => ({ getJobCounts: async () => ({ waiting: 0, active: 0, delayed: 0, failed: 0 }) }),
    } as unknown as ModuleRef,
    {
      pauseState: (shop: string) => ({ by: shop === domains[2] ? 'operator' : null }),
    } as unknown as CatalogGate,
    {
      snapshot: () => ({
        queue: { status: 'up', checkedAt: null, details: {} },
        ...Object.fromEntries([
          ...domains.map((d, i) => [`shopify:${d}`, { status: i === 5 ? 'degraded' : 'up' }]),
          ...accounts.map((a, i) => [`catalog:${a.id}`, { status: i === 3 ? 'degraded' : 'up' }]),
        ]),
      }),
    } as unknown as DependencyHealth,
    shops,
    { all: async () => sessions } as unknown as ShopSessionRepository,
    series,
  ).onModuleInit();
  new DriftGauges(
    metrics,
    {
      metricCounts: async () => ({
        open: domains.map((shop, i) => ({ shop, kind: DRIFT_KINDS[0] as string, count: i % 3 })),
        reports: domains.map((shop) => ({ shop, count: 3 })),
        repairs: domains.map((shop) => ({
          shop,
          kind: DRIFT_KINDS[0] as string,
          outcome: 'repaired',
          count: 1,
        })),
      }),
    } as unknown as DriftReportsRepository,
    shops,
    series,
  ).onModuleInit();
  new AlertGauges(
    metrics,
    {
      shopStates: async () =>
        domains.map((shop, i) => ({
          shop,
          seenState: i === 5 ? 'failing' : i === 3 ? 'degraded' : 'healthy',
          checkedAt: new Date(now),
        })),
      countsByState: async () => [],
    } as unknown as AlertDeliveriesRepository,
    { checkIntervalMs: 30_000 } as AlertSettings,
    new ManualClock(now),
    series,
  ).onModuleInit();
  const observations = new Observations();
  new ObservationMetrics(observations, metrics, series).onModuleInit();
  for (const [i, shop] of domains.entries()) {
    for (const endpoint of ['POST /v1/products', 'PATCH /v1/products/{skuId}', 'POST /v1/products/search']) {
      observations.catalogCall({ account: accounts[i]?.id as string, endpoint, status: 200, outcome: 'ok' });
      observations.catalogCall({
        account: accounts[i]?.id as string,
        endpoint,
        status: 429,
        outcome: 'retry',
      });
      observations.catalogRateLimited({ account: accounts[i]?.id as string, endpoint });
    }
    observations.pollLag({ shop, seconds: i === 7 ? 7_200 : 30 });
    observations.writeBack({ shop, outcome: 'push_ok' });
    observations.conflict({ shop, kind: 'merchant_edit' });
  }
  const text = await metrics.render();
  const lines = text
    .split('\n')
    .filter((line) => line.startsWith('connector_') && !/^connector_(process|nodejs)_/.test(line));
  return { lines, domains };
}

const value = (lines: string[], metric: string, labels: string) =>
  Number(
    lines
      .find((l) => l.startsWith(`${metric}{${labels}}`))
      ?.split(' ')
      .at(-1),
  );

describe("the per-shop metrics' series", () => {
  it('stay as many with 200 shops as with 50: 20 shops each, the others in `_other`', async () => {
    const fifty = await scrape(50);
    const twoHundred = await scrape(200);
    expect(twoHundred.lines.length).toBe(fifty.lines.length);
    expect(twoHundred.lines.length).toBeLessThan(1_200);
    // With every shop's own series it would be some 7,000.
    const all = await scrape(200, 100_000);
    expect(all.lines.length).toBeGreaterThan(5_000);
  });

  it('keep the shops that need a look, and count the others under `_other`', async () => {
    const { lines, domains } = await scrape(200);
    // The shop Shopify refuses, the paused one, the failing and degraded ones: named.
    expect(value(lines, 'connector_shop_state', `shop="${domains[5]}",state="needs_reauth"`)).toBe(1);
    expect(value(lines, 'connector_shop_state', `shop="${OTHER_SHOPS}",state="active"`)).toBe(180);
    expect(value(lines, 'connector_sync_paused', `shop="${domains[2]}",by="operator"`)).toBe(1);
    expect(value(lines, 'connector_shop_health', `shop="${domains[5]}",state="failing"`)).toBe(1);
    expect(value(lines, 'connector_shop_health', `shop="${domains[3]}",state="degraded"`)).toBe(1);
    expect(value(lines, 'connector_shop_health', `shop="${OTHER_SHOPS}",state="healthy"`)).toBe(180);
    expect(
      value(lines, 'connector_catalog_breaker_state', 'account="http://catalog#key3",state="open"'),
    ).toBe(1);
    expect(
      value(lines, 'connector_dependency_status', `dependency="shopify:${domains[5]}",status="degraded"`),
    ).toBe(1);
    expect(value(lines, 'connector_dependency_status', 'dependency="shopify:_other",status="up"')).toBe(180);
    expect(value(lines, 'connector_dependency_status', 'dependency="queue",status="up"')).toBe(1);
    // Open failures: the shop with most, and every shop's own (`*`), named.
    expect(value(lines, 'connector_failures_open', `shop="${domains[1]}",job_kind="sync-product"`)).toBe(4);
    expect(value(lines, 'connector_failures_open', 'shop="*",job_kind="enrichment-poll"')).toBe(1);
    // The lag that matters is named; `_other` holds the largest of the rest.
    expect(value(lines, 'connector_enrichment_poll_lag_seconds', `shop="${domains[7]}"`)).toBe(7_200);
    expect(value(lines, 'connector_enrichment_poll_lag_seconds', `shop="${OTHER_SHOPS}"`)).toBe(30);
    // Counters: the first 20 shops (accounts) they counted, then `_other`; nothing lost.
    expect(value(lines, 'connector_write_backs_total', `shop="${OTHER_SHOPS}",outcome="push_ok"`)).toBe(180);
    expect(
      value(
        lines,
        'connector_catalog_rate_limited_total',
        `account="${OTHER_SHOPS}",endpoint="POST /v1/products"`,
      ),
    ).toBe(180);
  });

  it('are not folded at all for fewer shops than the limit', async () => {
    const { lines } = await scrape(10);
    expect(lines.some((l) => l.includes(OTHER_SHOPS))).toBe(false);
  });
});

describe('ShopSeries', () => {
  it('gives a counter its first N values, then `_other`, and keeps each answer', () => {
    const series = new ShopSeries({ metricsShopSeries: 2 } as OperationsSettings);
    expect(['a', 'b', 'c', 'a', 'd', 'b'].map((v) => series.counterLabel('x', v))).toEqual([
      'a',
      'b',
      OTHER_SHOPS,
      'a',
      OTHER_SHOPS,
      'b',
    ]);
    expect(series.counterLabel('y', 'c')).toBe('c');
  });

  it('folds nothing under a limit of 0 but into `_other`', () => {
    const series = new ShopSeries({ metricsShopSeries: 0 } as OperationsSettings);
    const folded = series.keep(
      [
        { labels: { shop: 'a' }, value: 1 },
        { labels: { shop: 'b' }, value: 2 },
      ],
      'shop',
      total,
    );
    expect(folded).toEqual([{ labels: { shop: OTHER_SHOPS }, value: 3 }]);
  });
});
