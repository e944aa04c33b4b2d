import { Injectable } from '@nestjs/common';
import { Clock } from '#lib/clock';
import { CatalogClients } from '../../clients/catalog/catalog-clients.service.js';
import { InboxRepository } from '../../intake/inbox.repository.js';
import { CatalogSettings } from '../../platform/config/settings.js';
import { WriteBackStates } from '../../write-back/store/write-back-states.repository.js';
import { type ShopPageRequest, shopPage } from '../admin/shop-page.js';
import { HEALTH_STATES_WORST_FIRST } from '../admin/shop-page-query.dto.js';
import { CatalogCallWindow } from '../metrics/catalog-call-window.service.js';
import type { OverviewDto } from './overview.dto.js';
import { OverviewMinutes } from './overview-minutes.repository.js';
import { OverviewRecorder } from './overview-recorder.service.js';
import { overviewReadError, ShopStatesService } from './shop-states.service.js';

/** One minute's catalog calls and 429 answers (every replica's, from `overview_minutes`). */
export interface CatalogMinute {
  minute: Date;
  calls: number;
  rateLimited: number;
}
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
    private readonly pushes: WriteBackStates,
    private readonly window: CatalogCallWindow,
    private readonly catalog: CatalogSettings,
    private readonly clock: Clock,
    private readonly minutes: OverviewMinutes,
    private readonly recorder: OverviewRecorder,
  ) {}

  /** Every shop (no `request`: alerts read them all), or one page of them, worst first. */
  async overview(request?: ShopPageRequest): Promise<OverviewDto> {
    const now = this.clock.now();
    // Any of the three reads may be the one that loses PostgreSQL: the same 503 for each.
    const [states, recent, written] = await Promise.all([
      this.states.states(),
      this.inbox.perMinute(new Date(now - 60_000), null),
      this.pushes.pushesPerMinute(new Date(now - 3_600_000)),
    ]).catch((error: unknown) => {
      throw overviewReadError(error);
    });
    const budgetPerMinute = Math.floor(this.catalog.ratePerSecond * 60);
    const paged = shopPage(
      states.shops,
      HEALTH_STATES_WORST_FIRST,
      request ?? { limit: Math.max(1, states.shops.length) },
    );
    const ages = states.shops.map((s) => s.backlogAgeSeconds).filter((age): age is number => age !== null);
    return {
      at: new Date(now).toISOString(),
      shops: paged.shops,
      total: paged.total,
      offset: paged.offset,
      limit: paged.limit,
      stateCounts: {
        failing: paged.counts.failing ?? 0,
        degraded: paged.counts.degraded ?? 0,
        healthy: paged.counts.healthy ?? 0,
      },
      syncBacklog: states.shops.reduce((sum, s) => sum + s.backlog, 0),
      syncBacklogAgeSeconds: ages.length === 0 ? null : Math.max(...ages),
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
}
