import { Controller, Get, Query, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Clock } from '#lib/clock';
import { CatalogClients } from '../../clients/catalog/catalog-clients.service.js';
import { catalogKeyGroups } from '../../clients/catalog/catalog-key-shops.js';
import { SyncPauses } from '../../clients/catalog/sync-pauses.service.js';
import { InboxRepository } from '../../intake/inbox.repository.js';
import { SyncRecords } from '../../product-sync/sync-records.repository.js';
import { Shops } from '../../shops/shops.js';
import { WriteBackStates } from '../../write-back/store/write-back-states.repository.js';
import { ShopEntries } from '../admin/shop-entries.service.js';
import { shopPage } from '../admin/shop-page.js';
import { AUTH_STATES_WORST_FIRST, HEALTH_STATES_WORST_FIRST } from '../admin/shop-page-query.dto.js';
import { OverviewService } from '../overview/overview.service.js';
import { OverviewCharts } from '../overview/overview-charts.service.js';
import { AdminUiFilter } from './admin-ui.filter.js';
import { AdminUiGuard } from './admin-ui.guard.js';
import { deliveriesPage, overviewPage, shopsPage, writeBacksPage } from './overview-pages.js';
import { catalogKeysSection } from './ui-bulk-pages.js';
import { UiPage, UiQuery } from './ui-openapi.decorators.js';
import type { ListContext } from './ui-product-link.js';
import { UiProductTitles } from './ui-product-titles.service.js';
import { hoursOf, type UiRequest } from './ui-request.js';
import { csrfOf, sendHtml } from './ui-respond.js';
import { shopSettingsSection } from './ui-shop-pages.js';
import { uiShopPageRequest, uiShopPaging } from './ui-shop-paging.js';
import { SYNC_OUTCOMES, syncsPage } from './ui-sync-pages.js';

const DELIVERY_STATES = new Set(['received', 'done', 'rejected']);

/** Why: the view's landing page (each shop's state, the numbers now, the recent minutes' charts), the shops page and the lists its figures link to. */
@ApiTags('admin-ui')
@Controller('admin/ui')
@UseFilters(AdminUiFilter)
@UseGuards(AdminUiGuard)
export class AdminUiOverviewController {
  constructor(
    private readonly overview: OverviewService,
    private readonly entries: ShopEntries,
    private readonly inbox: InboxRepository,
    private readonly shopList: Shops,
    private readonly clock: Clock,
    private readonly pushes: WriteBackStates,
    private readonly catalogs: CatalogClients,
    private readonly pauses: SyncPauses,
    private readonly syncRecords: SyncRecords,
    private readonly charts: OverviewCharts,
    private readonly titles: UiProductTitles,
  ) {}

  /** The overview; the failures inbox's old address (`/admin/ui?state=`) goes to its new one. */
  @Get()
  @UiPage({
    operationId: 'uiOverview',
    summary:
      "The web view's overview: each shop's state, the numbers now, the last 24 hours (without a session: the sign-in form, 401)",
    description:
      'Server-rendered HTML, charts as inline SVG. The queues view (bull-board, read-only) is served under /admin/ui/queues/ with the same session.',
    redirect: true,
  })
  @UiQuery(
    'state',
    "Only the shops in this state (failing, degraded, healthy); any other value is the failures inbox's old address: a 303 to /admin/ui/failures?state=.",
  )
  @UiQuery('q', 'Only the shops whose domain contains this (any case).')
  @UiQuery(
    'page',
    'The page of `limit` shops, from 1 (worst first: failing, degraded, healthy; then by domain).',
  )
  @UiQuery('limit', 'Shops a page shows (1 to 500, default 50).')
  async landing(
    @Req() req: UiRequest,
    @Res() res: Response,
    @Query('state') state?: string,
    @Query('q') q?: string,
    @Query('page') pageNumber?: string,
    @Query('limit') limit?: string,
  ): Promise<void> {
    const states: readonly string[] = HEALTH_STATES_WORST_FIRST;
    if (state !== undefined && state !== '' && !states.includes(state)) {
      res.redirect(303, `/admin/ui/failures?state=${encodeURIComponent(state)}`);
      return;
    }
    const request = uiShopPageRequest({ state, q, page: pageNumber, limit }, states);
    const [view, charts] = await Promise.all([this.overview.overview(request), this.charts.charts()]);
    const paging = uiShopPaging('/admin/ui', request, { ...view, counts: { ...view.stateCounts } }, states);
    sendHtml(res, 200, overviewPage(view, charts, csrfOf(req), paging));
  }

  @Get('shops')
  @UiPage({
    operationId: 'uiShops',
    summary: 'Every shop: auth state, mode, catalog key set, webhook subscriptions',
  })
  @UiQuery('state', 'Only the shops in this auth state.', { enum: [...AUTH_STATES_WORST_FIRST] })
  @UiQuery('q', 'Only the shops whose domain contains this (any case).')
  @UiQuery('page', 'The page of `limit` shops, from 1 (worst auth state first, then by domain).')
  @UiQuery('limit', 'Shops a page shows (1 to 500, default 50).')
  async shops(
    @Req() req: UiRequest,
    @Res() res: Response,
    @Query('state') state?: string,
    @Query('q') q?: string,
    @Query('page') pageNumber?: string,
    @Query('limit') limit?: string,
  ): Promise<void> {
    const states: readonly string[] = AUTH_STATES_WORST_FIRST;
    const request = uiShopPageRequest({ state, q, page: pageNumber, limit }, states);
    const paged = shopPage(await this.entries.all(), states, request);
    const entries = paged.shops;
    const keys = catalogKeysSection(catalogKeyGroups(this.shopList, this.catalogs), this.pauses.all());
    const paging = uiShopPaging('/admin/ui/shops', request, paged, states);
    sendHtml(
      res,
      200,
      shopsPage(entries, csrfOf(req), shopSettingsSection(entries) + keys, this.clock.now(), paging),
    );
  }

  @Get('deliveries')
  @UiPage({
    operationId: 'uiDeliveries',
    summary: "The inbox's latest webhook deliveries (200 at most), by shop, state and time",
  })
  @UiQuery('shop', 'Deliveries of this shop.')
  @UiQuery('state', 'Deliveries in this state.', { enum: [...DELIVERY_STATES] })
  @UiQuery('hours', 'Received in the last hours (1 to 720, default 24).')
  async deliveries(
    @Req() req: UiRequest,
    @Res() res: Response,
    @Query('shop') shop?: string,
    @Query('state') state?: string,
    @Query('hours') hours?: string,
  ): Promise<void> {
    const filter = {
      shop: this.shopOrNull(shop),
      state: state !== undefined && DELIVERY_STATES.has(state) ? state : null,
      hours: hoursOf(hours),
    };
    const since = new Date(this.clock.now() - filter.hours * 3_600_000);
    const rows = await this.inbox.latest({ ...filter, since }, 200);
    const shops = this.shopList.all.map((s) => s.domain);
    sendHtml(res, 200, deliveriesPage(rows, filter, shops, csrfOf(req), await this.context(rows)));
  }

  @Get('write-backs')
  @UiPage({
    operationId: 'uiWriteBacks',
    summary: 'The latest write-back history entries (200 at most), by shop and time',
  })
  @UiQuery('shop', 'Entries of this shop.')
  @UiQuery('hours', 'In the last hours (1 to 720, default 24).')
  async writeBacks(
    @Req() req: UiRequest,
    @Res() res: Response,
    @Query('shop') shop?: string,
    @Query('hours') hours?: string,
  ): Promise<void> {
    const filter = { shop: this.shopOrNull(shop), hours: hoursOf(hours) };
    const since = new Date(this.clock.now() - filter.hours * 3_600_000);
    const rows = await this.pushes.latestPushes({ shop: filter.shop, since }, 200);
    const shops = this.shopList.all.map((s) => s.domain);
    sendHtml(res, 200, writeBacksPage(rows, filter, shops, csrfOf(req), await this.context(rows)));
  }

  @Get('syncs')
  @UiPage({
    operationId: 'uiSyncRecords',
    summary: 'The latest product sync records (200 at most), by shop, outcome and time',
  })
  @UiQuery('shop', 'Runs of this shop.')
  @UiQuery('outcome', 'Runs with this outcome.', { enum: [...SYNC_OUTCOMES] })
  @UiQuery('hours', 'Finished in the last hours (1 to 720, default 24).')
  async syncs(
    @Req() req: UiRequest,
    @Res() res: Response,
    @Query('shop') shop?: string,
    @Query('outcome') outcome?: string,
    @Query('hours') hours?: string,
  ): Promise<void> {
    const filter = {
      shop: this.shopOrNull(shop),
      outcome: SYNC_OUTCOMES.find((o) => o === outcome) ?? null,
      hours: hoursOf(hours),
    };
    const since = new Date(this.clock.now() - filter.hours * 3_600_000);
    const rows = await this.syncRecords.latest({ ...filter, since }, 200);
    const shops = this.shopList.all.map((s) => s.domain);
    sendHtml(res, 200, syncsPage(rows, filter, shops, csrfOf(req), await this.context(rows)));
  }

  /** A list's now and its products' titles (one lookup for the page). */
  private async context(
    rows: ReadonlyArray<{ shop: string; productId: string | null }>,
  ): Promise<ListContext> {
    return { now: this.clock.now(), titles: await this.titles.of(rows) };
  }

  private shopOrNull(shop: string | undefined): string | null {
    return shop !== undefined && this.shopList.find(shop) ? shop : null;
  }
}
