import { Injectable } from '@nestjs/common';
import { Clock } from '#lib/clock';
import { DriftReportsRepository } from '../../drift/store/drift-reports.repository.js';
import { ShopMappings } from '../../mapping/shop-mappings.service.js';
import { EnrichmentSettings, ReconcileSettings } from '../../platform/config/settings.js';
import { tickMs } from '../../platform/queues/schedule-spread.js';
import { SyncRecords } from '../../product-sync/sync-records.repository.js';
import { ReconcileCheckpointsRepository } from '../../resync/reconcile-checkpoints.repository.js';
import { EnrichmentPollRuns } from '../../write-back/store/enrichment-poll-runs.repository.js';
import { type ShopRunTimes, shopRunTimes } from './run-times.js';

/**
 * Why: the overview and the shop's page say when each shop last synced, was polled and
 * reconciled, and when the next scheduled run is due. The evidence has many owners (the sync
 * records, the enrichment polls, the reconciliation checkpoints, the drift reports) and the
 * intervals are the configuration's; this gathers them per shop and applies `shopRunTimes`.
 */
@Injectable()
export class RunTimes {
  constructor(
    private readonly syncRecords: SyncRecords,
    private readonly polls: EnrichmentPollRuns,
    private readonly checkpoints: ReconcileCheckpointsRepository,
    private readonly drift: DriftReportsRepository,
    private readonly mappings: ShopMappings,
    private readonly enrichment: EnrichmentSettings,
    private readonly reconcile: ReconcileSettings,
    private readonly clock: Clock,
  ) {}

  /** Each shop's last runs and next due ones, read now. */
  async of(shops: readonly string[]): Promise<Map<string, ShopRunTimes>> {
    const [synced, polled, scheduled, reconciled, drifted] = await Promise.all([
      this.syncRecords.lastSucceeded(shops),
      this.polls.lastPolled(shops),
      this.polls.lastScheduled(),
      this.checkpoints.lastRuns(shops),
      Promise.all(shops.map(async (shop) => [shop, await this.drift.latest(shop)] as const)),
    ]);
    const reports = new Map(drifted);
    // A spread poll (`schedule-spread.ts`) takes each shop at its own turn: its rhythm is the
    // shop's last poll, not the scheduler's last tick.
    const { pollIntervalMs } = this.enrichment;
    const lastScheduled = tickMs(pollIntervalMs) < pollIntervalMs ? null : scheduled;
    const at = (date: Date | undefined | null) => date?.getTime() ?? null;
    const schedule = {
      pollIntervalMs: this.enrichment.pollIntervalMs,
      reconcileIntervalMs: this.reconcile.intervalMs,
      driftIntervalMs: this.reconcile.driftIntervalMs,
    };
    return new Map(
      shops.map((shop) => [
        shop,
        shopRunTimes(
          {
            lastSync: at(synced.get(shop)),
            lastPoll: at(polled.get(shop)),
            lastReconcile: at(reconciled.get(shop)),
            lastDrift: at(reports.get(shop)?.createdAt),
            lastScheduledPoll: at(lastScheduled),
            polled: (this.mappings.mapping(shop)?.writeBack.length ?? 0) > 0,
          },
          schedule,
        ),
      ]),
    );
  }

  /** `now` from the injected clock: the words ("12 min ago") are read against it. */
  now(): number {
    return this.clock.now();
  }
}
