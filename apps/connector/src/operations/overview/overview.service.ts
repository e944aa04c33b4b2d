import { Injectable } from '@nestjs/common';
import { Clock } from '#lib/clock';
import { CatalogClients } from '../../clients/catalog/catalog-clients.service.js';
import { CatalogGate } from '../../clients/catalog/catalog-gate.service.js';
import { SharedCostBuckets } from '../../clients/shopify/shared-cost-buckets.repository.js';
import { InboxRepository } from '../../intake/inbox.repository.js';
import { ShopMappings } from '../../mapping/shop-mappings.service.js';
import { CatalogSettings, EnrichmentSettings, OperationsSettings } from '../../platform/config/settings.js';
import { FailuresService } from '../../platform/failures/failures.service.js';
import { MappingGapsRepository } from '../../product-sync/gaps/mapping-gaps.repository.js';
import { ProductSyncStates } from '../../product-sync/product-sync-states.repository.js';
import { WriteBackStates } from '../../write-back/store/write-back-states.repository.js';
import { WriteBackStatus } from '../../write-back/write-back-status.service.js';
import { ShopEntries } from '../admin/shop-entries.service.js';
import { CatalogCallWindow } from '../metrics/catalog-call-window.service.js';
import { RunTimes } from '../runs/run-times.service.js';
import type { OverviewDto, ShopOverviewDto } from './overview.dto.js';
import { OverviewMinutes } from './overview-minutes.repository.js';
import { OverviewRecorder } from './overview-recorder.service.js';
import { shopHealth } from './shop-health.js';

/** The reasons of a shop's mapping gaps the overview names (the list page has all). */
const GAP_REASONS = 10;

/** One minute's catalog calls and 429 answers (every replica's, from `overview_minutes`). */
export interface CatalogMinute {
  minute: Date;
  calls: number;
  rateLimited: number;
}

/**
 * Why: the overview (API and page) needs every shop's facts from many owners at once: its
 * session's auth state, an operator's pause, the mapping check, the inbox backlog, the catalog
 * breaker, the enrichment poll's lag, its open failures and its mapping gaps. This gathers them, read from
 * PostgreSQL (the same on every replica) and the shared state, and applies `shopHealth`.
 */
@Injectable()
export class OverviewService {
  constructor(
    private readonly entries: ShopEntries,
    private readonly gate: CatalogGate,
    private readonly catalogs: CatalogClients,
    private readonly mappings: ShopMappings,
    private readonly inbox: InboxRepository,
    private readonly failures: FailuresService,
    private readonly writeBack: WriteBackStatus,
    private readonly pushes: WriteBackStates,
    private readonly buckets: SharedCostBuckets,
    private readonly window: CatalogCallWindow,
    private readonly enrichment: EnrichmentSettings,
    private readonly catalog: CatalogSettings,
    private readonly operations: OperationsSettings,
    private readonly clock: Clock,
    private readonly minutes: OverviewMinutes,
    private readonly recorder: OverviewRecorder,
    private readonly gaps: MappingGapsRepository,
    private readonly syncStates: ProductSyncStates,
    private readonly runTimes: RunTimes,
  ) {}

  async overview(): Promise<OverviewDto> {
    const now = this.clock.now();
    const [entries, backlog, open, status, use, recent, written, gapSummaries, known] = await Promise.all([
      this.entries.all(),
      this.inbox.backlog(),
      this.failures.openCounts(),
      this.writeBack.enrichmentStatus(),
      this.buckets.use(now),
      this.inbox.perMinute(new Date(now - 60_000), null),
      this.pushes.pushesPerMinute(new Date(now - 3_600_000)),
      this.gaps.summaries(GAP_REASONS),
      this.syncStates.knownProducts(),
    ]);
    const runs = await this.runTimes.of(entries.map((entry) => entry.shop));
    const waiting = new Map(backlog.map((row) => [row.shop, row]));
    const gapsOf = new Map(gapSummaries.map((summary) => [summary.shop, summary]));
    const shops = entries
      .filter((entry) => entry.source !== 'gone')
      .map((entry): ShopOverviewDto => {
        const failures: Record<string, number> = {};
        for (const row of open) if (row.shop === entry.shop) failures[row.jobKind] = row.count;
        const pause = this.gate.pauseState(entry.shop);
        const mapping = this.mappings.state(entry.shop);
        const queued = waiting.get(entry.shop);
        const breaker = this.catalogs.hasKey(entry.shop)
          ? this.catalogs.forShop(entry.shop).client.breaker.state
          : 'closed';
        const facts = {
          authState: entry.state,
          authReason: entry.stateReason,
          operatorPause: pause.by === 'operator' ? pause.reason : null,
          mappingProblem: mapping.status === 'invalid' ? mapping.error.message : null,
          catalogKeyProblem: entry.catalogKeyProblem,
          backlog: queued?.waiting ?? 0,
          backlogAgeSeconds: queued ? Math.max(0, (now - queued.oldest.getTime()) / 1000) : null,
          backlogFailingSeconds: this.operations.backlogFailingMs / 1000,
          breaker,
          pollLagSeconds: status.lagSeconds,
          pollIntervalSeconds: this.enrichment.pollIntervalMs / 1000,
          openFailures: failures,
          mappingGaps: {
            products: gapsOf.get(entry.shop)?.products ?? 0,
            knownProducts: known.get(entry.shop) ?? 0,
            degradedShare: this.operations.mappingGapDegradedShare,
            topReason: gapsOf.get(entry.shop)?.reasons[0] ?? null,
            reasonCount: gapsOf.get(entry.shop)?.reasonCount ?? 0,
          },
        };
        const gaps = facts.mappingGaps;
        const knownProducts = Math.max(gaps.knownProducts, gaps.products);
        return {
          shop: entry.shop,
          ...shopHealth(facts),
          authState: entry.state,
          mode: entry.mode,
          backlog: facts.backlog,
          backlogAgeSeconds: facts.backlogAgeSeconds,
          breaker,
          costBucketUse: use.get(entry.shop) ?? null,
          openFailures: failures,
          mappingGaps: {
            products: gaps.products,
            knownProducts,
            share: knownProducts === 0 ? 0 : gaps.products / knownProducts,
            reasons: gapsOf.get(entry.shop)?.reasons ?? [],
            reasonCount: gaps.reasonCount,
          },
          runs: runs.get(entry.shop) ?? null,
        };
      });
    const byKind: Record<string, number> = {};
    for (const row of open) byKind[row.jobKind] = (byKind[row.jobKind] ?? 0) + row.count;
    const budgetPerMinute = Math.floor(this.catalog.ratePerSecond * 60);
    return {
      at: new Date(now).toISOString(),
      shops,
      deliveriesLastMinute: recent.reduce((sum, row) => sum + row.count, 0),
      catalog: this.catalogs.all().map((account) => ({
        account: account.id,
        callsLastMinute: this.window.lastMinute(account.id),
        budgetPerMinute,
      })),
      enrichmentLagSeconds: status.lagSeconds,
      openFailuresByKind: byKind,
      writeBacksLastHour: written.reduce((sum, row) => sum + row.count, 0),
    };
  }

  /**
   * The catalog calls and 429 answers of each minute since `since` that had any, newest first,
   * with the budget a minute (every catalog account's): the list behind "Catalog budget used".
   */
  async catalogMinutes(since: Date): Promise<{ budgetPerMinute: number; minutes: CatalogMinute[] }> {
    await this.recorder.flush();
    const [calls, limited] = await Promise.all([
      this.minutes.since('catalog_calls', since),
      this.minutes.since('catalog_429', since),
    ]);
    const byMinute = new Map<number, CatalogMinute>();
    const at = (minute: Date) => {
      const key = minute.getTime();
      const row = byMinute.get(key) ?? { minute, calls: 0, rateLimited: 0 };
      byMinute.set(key, row);
      return row;
    };
    for (const row of calls) at(row.minute).calls += row.count;
    for (const row of limited) at(row.minute).rateLimited += row.count;
    const accounts = Math.max(1, this.catalogs.all().length);
    return {
      budgetPerMinute: Math.floor(this.catalog.ratePerSecond * 60) * accounts,
      minutes: [...byMinute.values()].sort((a, b) => b.minute.getTime() - a.minute.getTime()),
    };
  }
}
