import { Controller, Get, Query, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Clock } from '#lib/clock';
import { Shops } from '../../shops/shops.js';
import { PollBudgetShares } from '../../write-back/poll/poll-budget-shares.service.js';
import { EnrichmentPollRuns } from '../../write-back/store/enrichment-poll-runs.repository.js';
import { OverviewService } from '../overview/overview.service.js';
import { AdminUiFilter } from './admin-ui.filter.js';
import { AdminUiGuard } from './admin-ui.guard.js';
import { catalogCallsPage, enrichmentPollsPage } from './ui-figure-pages.js';
import { UiPage, UiQuery } from './ui-openapi.decorators.js';
import { hoursOf, type UiRequest } from './ui-request.js';
import { csrfOf, sendHtml } from './ui-respond.js';

/** Why: the lists behind the overview's "Catalog budget used" and "Enrichment lag" figures and charts. */
@ApiTags('admin-ui')
@Controller('admin/ui')
@UseFilters(AdminUiFilter)
@UseGuards(AdminUiGuard)
export class AdminUiFiguresController {
  constructor(
    private readonly overview: OverviewService,
    private readonly polls: EnrichmentPollRuns,
    private readonly shopList: Shops,
    private readonly pollShares: PollBudgetShares,
    private readonly clock: Clock,
  ) {}

  @Get('enrichment-polls')
  @UiPage({
    operationId: 'uiEnrichmentPolls',
    summary:
      'The latest enrichment polls (200 at most): when, what each found, changed and gave push work, the lag it left, its outcome; by shop and time',
  })
  @UiQuery('shop', "That shop's part of each poll (failed polls too).")
  @UiQuery('hours', 'Started in the last hours (1 to 720, default 24).')
  async enrichmentPolls(
    @Req() req: UiRequest,
    @Res() res: Response,
    @Query('shop') shop?: string,
    @Query('hours') hours?: string,
  ): Promise<void> {
    const filter = {
      shop: shop !== undefined && this.shopList.find(shop) ? shop : null,
      hours: hoursOf(hours),
    };
    const since = new Date(this.clock.now() - filter.hours * 3_600_000);
    const runs = await this.polls.latest({ shop: filter.shop, since }, 200);
    const shops = this.shopList.all.map((s) => s.domain);
    sendHtml(res, 200, enrichmentPollsPage(runs, filter, shops, csrfOf(req), this.clock.now()));
  }

  @Get('catalog-calls')
  @UiPage({
    operationId: 'uiCatalogCalls',
    summary:
      "Each minute's catalog calls and 429 answers (every replica's) and the budget they used, by time; the enrichment poll's share of each account's budget over the window, against its bound",
  })
  @UiQuery('hours', 'In the last hours (1 to 720, default 24).')
  async catalogCalls(
    @Req() req: UiRequest,
    @Res() res: Response,
    @Query('hours') hours?: string,
  ): Promise<void> {
    const within = hoursOf(hours);
    const since = new Date(this.clock.now() - within * 3_600_000);
    const [view, polls] = await Promise.all([
      this.overview.catalogMinutes(since),
      this.pollShares.since(since),
    ]);
    sendHtml(res, 200, catalogCallsPage(view, polls, within, csrfOf(req), this.clock.now()));
  }
}
