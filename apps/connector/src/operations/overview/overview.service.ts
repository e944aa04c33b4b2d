import { Injectable } from '@nestjs/common';
import { Clock } from '#lib/clock';
import { CatalogClients } from '../../clients/catalog/catalog-clients.service.js';
import { InboxRepository } from '../../intake/inbox.repository.js';
import { CatalogSettings } from '../../platform/config/settings.js';
import { FailuresService } from '../../platform/failures/failures.service.js';
import { WriteBackStates } from '../../write-back/store/write-back-states.repository.js';
import { CatalogCallWindow } from '../metrics/catalog-call-window.service.js';
import type { OverviewDto } from './overview.dto.js';
import { OverviewMinutes } from './overview-minutes.repository.js';
import { OverviewRecorder } from './overview-recorder.service.js';
import { type ChartSeries, perMinute } from './per-minute.js';
import { ShopStatesService } from './shop-states.service.js';

const DAY_MINUTES = 24 * 60;

/** One minute's catalog calls and 429 answers (every replica's, from `overview_minutes`). */
export interface CatalogMinute {
  minute: Date;
  calls: number;
  rateLimited: number;
}
/** Line colours, each at least 4.5:1 against white. */
const COLOURS = ['#0b4fb3', '#1b6e35', '#8a4b00', '#a4161a', '#6a3d9a'];

/**
 * Why: the overview (API and page) shows every shop's state (`ShopStatesService`: its rules and
 * causes) beside the numbers that matter now and the last day's charts, read from PostgreSQL
 * (the same on every replica) and the shared state.
 */
@Injectable()
export class OverviewService {
  constructor(
    private readonly states: ShopStatesService,
    private readonly catalogs: CatalogClients,
    private readonly inbox: InboxRepository,
    private readonly failures: FailuresService,
    private readonly pushes: WriteBackStates,
    private readonly window: CatalogCallWindow,
    private readonly catalog: CatalogSettings,
    private readonly clock: Clock,
    private readonly minutes: OverviewMinutes,
    private readonly recorder: OverviewRecorder,
  ) {}

  async overview(): Promise<OverviewDto> {
    const now = this.clock.now();
    const [states, recent, written] = await Promise.all([
      this.states.states(),
      this.inbox.perMinute(new Date(now - 60_000), null),
      this.pushes.pushesPerMinute(new Date(now - 3_600_000)),
    ]);
    const budgetPerMinute = Math.floor(this.catalog.ratePerSecond * 60);
    return {
      at: new Date(now).toISOString(),
      shops: states.shops,
      deliveriesLastMinute: recent.reduce((sum, row) => sum + row.count, 0),
      catalog: this.catalogs.all().map((account) => ({
        account: account.id,
        callsLastMinute: this.window.lastMinute(account.id),
        budgetPerMinute,
      })),
      enrichmentLagSeconds: states.pollLagSeconds,
      openFailuresByKind: states.openFailuresByKind,
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

  /** The last 24 hours per minute, from the tables' own timestamps: deliveries, failures opened and resolved. */
  async charts(): Promise<Array<{ id: string; title: string; href: string; series: ChartSeries[] }>> {
    // This process's counts since its last write, so the charts include them.
    await this.recorder.flush();
    const now = this.clock.now();
    const since = new Date(now - DAY_MINUTES * 60_000);
    const [deliveries, failures, outcomes, written, calls, limited, lag] = await Promise.all([
      this.inbox.perMinute(since, null),
      this.failures.perMinute(since),
      this.inbox.outcomesPerMinute(since),
      this.pushes.pushesPerMinute(since),
      this.minutes.since('catalog_calls', since),
      this.minutes.since('catalog_429', since),
      this.minutes.since('enrichment_lag', since),
    ]);
    const kinds = [...new Set(outcomes.map((row) => row.outcome))].sort().slice(0, COLOURS.length);
    return [
      {
        id: 'chart-deliveries',
        title: 'Webhook deliveries per minute, last 24 hours',
        href: '/admin/ui/deliveries?hours=24',
        series: [{ name: 'deliveries', colour: '#0b4fb3', values: perMinute(deliveries, now, DAY_MINUTES) }],
      },
      {
        id: 'chart-syncs',
        title: 'Deliveries synced per minute by outcome, last 24 hours',
        href: '/admin/ui/syncs',
        series: kinds.map((kind, i) => ({
          name: kind,
          colour: COLOURS[i] as string,
          values: perMinute(
            outcomes.filter((row) => row.outcome === kind),
            now,
            DAY_MINUTES,
          ),
        })),
      },
      {
        id: 'chart-catalog',
        title: 'Catalog calls and 429 answers per minute, last 24 hours',
        href: '/admin/ui/catalog-calls?hours=24',
        series: [
          { name: 'calls', colour: '#0b4fb3', values: perMinute(calls, now, DAY_MINUTES) },
          { name: '429', colour: '#a4161a', values: perMinute(limited, now, DAY_MINUTES) },
        ],
      },
      {
        id: 'chart-lag',
        title: 'Enrichment poll lag (seconds, highest each minute), last 24 hours',
        href: '/admin/ui/enrichment-polls?hours=24',
        series: [{ name: 'lag', colour: '#8a4b00', values: perMinute(lag, now, DAY_MINUTES) }],
      },
      {
        id: 'chart-write-backs',
        title: 'Write-backs to Shopify per minute, last 24 hours',
        href: '/admin/ui/write-backs?hours=24',
        series: [{ name: 'write-backs', colour: '#6a3d9a', values: perMinute(written, now, DAY_MINUTES) }],
      },
      {
        id: 'chart-failures',
        title: 'Failures opened and resolved per minute, last 24 hours',
        href: '/admin/ui/failures?hours=24',
        series: [
          { name: 'opened', colour: '#a4161a', values: perMinute(failures.opened, now, DAY_MINUTES) },
          { name: 'resolved', colour: '#1b6e35', values: perMinute(failures.resolved, now, DAY_MINUTES) },
        ],
      },
    ];
  }
}
