import { Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { Clock } from '#lib/clock';
import { Observations } from '../../platform/reporting/observations.service.js';
import { RetentionRegistry } from '../../platform/reporting/retention-registry.service.js';
import { accountSeries, isProductWrite } from './catalog-evidence.js';
import { OverviewMinutes, type OverviewSeries } from './overview-minutes.repository.js';

/** The overview's minutes are kept this long: the charts show 24 hours, a second day for comparison. */
export const OVERVIEW_MINUTES_AGE_MS = 2 * 24 * 3_600_000;

/** How often this process adds what it counted to `overview_minutes`. */
const FLUSH_EVERY_MS = 5_000;

interface Pending {
  series: OverviewSeries;
  at: number;
  value: number;
  /** `add`: a counter summed across replicas; `highest`: the minute keeps the largest. */
  kind: 'add' | 'highest';
}

/**
 * Why: catalog calls, 429s and the enrichment lag are only reported as they happen (no table
 * keeps them); each catalog account's calls, 429s, product writes and their 5xx answers too
 * (the catalog rules of the shops' states read them: `catalogEvidence`). Counting each into `overview_minutes` at once would put a write on the pool for
 * every catalog call, so this process sums them per series and minute in memory and writes one
 * upsert per series and minute every few seconds (and at shutdown, and before the overview
 * reads). A write that fails is dropped: observation never breaks the work it observes.
 */
@Injectable()
export class OverviewRecorder implements OnModuleInit, OnApplicationShutdown {
  private pending = new Map<string, Pending>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly observations: Observations,
    private readonly minutes: OverviewMinutes,
    private readonly registry: RetentionRegistry,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.observations.subscribe({
      catalogCall: ({ account, endpoint, status }) => {
        this.note('catalog_calls', 1, 'add');
        this.note(accountSeries('catalog_calls', account), 1, 'add');
        if (!isProductWrite(endpoint)) return;
        this.note(accountSeries('catalog_writes', account), 1, 'add');
        if (status !== null && status >= 500)
          this.note(accountSeries(`catalog_write_${status}`, account), 1, 'add');
      },
      catalogRateLimited: ({ account }) => {
        this.note('catalog_429', 1, 'add');
        this.note(accountSeries('catalog_429', account), 1, 'add');
      },
      pollLag: ({ seconds }) => this.note('enrichment_lag', seconds, 'highest'),
    });
    this.registry.register({
      name: 'overview_minutes',
      ageMs: OVERVIEW_MINUTES_AGE_MS,
      prune: (before) => this.minutes.pruneBefore(before),
    });
    this.timer = setInterval(() => void this.flush(), FLUSH_EVERY_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  /** Writes what this process counted so far (one upsert per series and minute). */
  async flush(): Promise<void> {
    const batch = [...this.pending.values()];
    this.pending = new Map();
    await Promise.all(
      batch.map((entry) =>
        (entry.kind === 'add'
          ? this.minutes.add(entry.series, entry.at, entry.value)
          : this.minutes.highest(entry.series, entry.at, entry.value)
        ).catch(() => undefined),
      ),
    );
  }

  private note(series: OverviewSeries, value: number, kind: Pending['kind']): void {
    const at = this.clock.now();
    const key = `${series}@${Math.floor(at / 60_000)}`;
    const entry = this.pending.get(key);
    if (entry === undefined) this.pending.set(key, { series, at, value, kind });
    else entry.value = kind === 'add' ? entry.value + value : Math.max(entry.value, value);
  }
}
