import { Injectable } from '@nestjs/common';
import { OperationsSettings } from '../../platform/config/settings.js';
import type { GaugeReading } from './connector-metrics.service.js';

/** The label value of the series every shop (or account) beyond the limit is folded into. */
export const OTHER_SHOPS = '_other';

/** How the folded shops' values are combined: summed (counts, 0/1 states) or their largest (a lag). */
export type Fold = 'sum' | 'max';

/**
 * Why: a Prometheus series per shop (or catalog account) is what an operator of 3 shops wants,
 * and what a Prometheus of 200 shops pays for at every scrape: the metrics that carry a `shop`,
 * `account` or per-shop `dependency` label keep series of their own for at most
 * `CONNECTOR_METRICS_SHOP_SERIES` of them (20 by default), and sum the others into one series
 * labelled `_other` (the largest of them for a lag). Gauges read at a scrape keep the shops that
 * need a look: the worst (a state other than the good one, open failures, the longest lag), then
 * by name; counters keep the first shops they count (a counter's series cannot move), the later
 * ones counted under `_other`. With fewer shops than the limit nothing is folded. Which metrics
 * and why: docs/operations.md, "Metrics".
 */
@Injectable()
export class ShopSeries {
  readonly limit: number;
  /** Per counter family, the shops (accounts) counted under their own name. */
  private readonly counted = new Map<string, Set<string>>();

  constructor(settings: OperationsSettings) {
    this.limit = settings.metricsShopSeries;
  }

  /**
   * The label a counter of `family` counts `value` (a shop, an account) under: its own while
   * fewer than the limit have one in this family, and ever after; `_other` beyond.
   */
  counterLabel(family: string, value: string): string {
    let own = this.counted.get(family);
    if (own === undefined) {
      own = new Set();
      this.counted.set(family, own);
    }
    if (own.has(value)) return value;
    if (own.size >= this.limit) return OTHER_SHOPS;
    own.add(value);
    return value;
  }

  /**
   * A gauge's readings with series of their own for the `limit` values of `label` that weigh the
   * most (`weight` of each one's readings; ties by name; `Infinity` is always kept), the others'
   * readings folded into `_other` (`group` may name the folded series per kind, e.g.
   * `shopify:_other`), their values combined by `fold`.
   */
  keep(
    readings: GaugeReading,
    label: string,
    weight: (own: GaugeReading) => number,
    fold: Fold = 'sum',
    group: (value: string) => string = () => OTHER_SHOPS,
  ): GaugeReading {
    const byValue = new Map<string, GaugeReading>();
    for (const reading of readings) {
      const value = reading.labels[label];
      if (value === undefined) continue;
      const own = byValue.get(value) ?? [];
      own.push(reading);
      byValue.set(value, own);
    }
    if (byValue.size <= this.limit) return readings;
    const ranked = [...byValue.entries()]
      .map(([value, own]) => ({ value, weight: weight(own) }))
      .sort((a, b) => b.weight - a.weight || a.value.localeCompare(b.value));
    const kept = new Set(
      ranked.filter((r, i) => i < this.limit || r.weight === Number.POSITIVE_INFINITY).map((r) => r.value),
    );
    const out: GaugeReading = [];
    const folded = new Map<string, { labels: Record<string, string>; value: number }>();
    for (const reading of readings) {
      const value = reading.labels[label];
      if (value === undefined || kept.has(value)) {
        out.push(reading);
        continue;
      }
      const labels = { ...reading.labels, [label]: group(value) };
      const key = JSON.stringify(Object.entries(labels).sort(([a], [b]) => a.localeCompare(b)));
      const into = folded.get(key);
      if (into === undefined) folded.set(key, { labels, value: reading.value });
      else into.value = fold === 'sum' ? into.value + reading.value : Math.max(into.value, reading.value);
    }
    return [...out, ...folded.values()];
  }
}

/** A group's weight: the sum of its readings whose `label` is not `good` (a state other than the healthy one). */
export function notIn(label: string, good: string): (own: GaugeReading) => number {
  return (own) => own.reduce((sum, r) => sum + (r.labels[label] !== good ? r.value : 0), 0);
}

/** A group's weight: the sum of its values (open failures, findings, refreshes). */
export function total(own: GaugeReading): number {
  return own.reduce((sum, r) => sum + r.value, 0);
}
