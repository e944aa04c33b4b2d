import { Injectable, type OnModuleInit } from '@nestjs/common';
import { Clock } from '#lib/clock';
import { Observations } from '../../platform/reporting/observations.js';
import { RetentionRegistry } from '../../platform/reporting/retention-registry.js';
import { OverviewMinutes, type OverviewSeries } from './overview-minutes.repository.js';

/** The overview's minutes are kept this long: the charts show 24 hours, a second day for comparison. */
export const OVERVIEW_MINUTES_AGE_MS = 2 * 24 * 3_600_000;

/**
 * Why: catalog calls, 429s and the enrichment lag are only reported as they happen (no table
 * keeps them); this writes each into `overview_minutes` as it is reported, in every process, and
 * registers the table with the retention job. A write that fails is dropped: observation never
 * breaks the work it observes.
 */
@Injectable()
export class OverviewRecorder implements OnModuleInit {
  constructor(
    private readonly observations: Observations,
    private readonly minutes: OverviewMinutes,
    private readonly registry: RetentionRegistry,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.observations.subscribe({
      catalogCall: () => this.count('catalog_calls'),
      catalogRateLimited: () => this.count('catalog_429'),
      pollLag: ({ seconds }) => {
        this.minutes.highest('enrichment_lag', this.clock.now(), seconds).catch(() => undefined);
      },
    });
    this.registry.register({
      name: 'overview_minutes',
      ageMs: OVERVIEW_MINUTES_AGE_MS,
      prune: (before) => this.minutes.pruneBefore(before),
    });
  }

  private count(series: OverviewSeries): void {
    this.minutes.add(series, this.clock.now(), 1).catch(() => undefined);
  }
}
