import { Controller, Get, Param, Post, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Clock } from '#lib/clock';
import { SyncPauses } from '../../clients/catalog/sync-pauses.service.js';
import { ConnectorError } from '../../platform/http/connector.error.js';
import { ConnectorErrorCode } from '../../platform/http/connector-error-code.js';
import { ResyncService } from '../../resync/resync.service.js';
import { Shops } from '../../shops/shops.js';
import { RunTimes } from '../runs/run-times.service.js';
import { AdminUiFilter } from './admin-ui.filter.js';
import { AdminUiGuard } from './admin-ui.guard.js';
import {
  pauseConfirmPage,
  resumeConfirmPage,
  shopResyncConfirmPage,
  shopSyncPage,
} from './ui-action-pages.js';
import { UiShopPauseForm } from './ui-forms.dto.js';
import { UiAction, UiForm, UiPage, UiPathParam } from './ui-openapi.decorators.js';
import type { UiRequest } from './ui-request.js';
import { csrfOf, sendHtml } from './ui-respond.js';
import { shopRunTimesSection } from './ui-run-pages.js';

const DONE = new Set(['paused', 'resumed', 'not-paused']);
const ERRORS = [400, 404, 409];
const ACTION_ERRORS = [400, 403, 404, 409];

/**
 * Why: the operators' shop actions in the web view, each confirmed on a page of its own (GET,
 * changes nothing) before its POST (the session's CSRF token, else 403), then a page showing
 * what it did. Pausing and resuming a shop's syncing use the admin API's `SyncPauses`; the
 * whole-shop resync its `ResyncService`.
 */
@ApiTags('admin-ui')
@Controller('admin/ui/shops/:shop')
@UseFilters(AdminUiFilter)
@UseGuards(AdminUiGuard)
@UiPathParam('shop')
export class AdminUiActionsController {
  constructor(
    private readonly shops: Shops,
    private readonly pauses: SyncPauses,
    private readonly clock: Clock,
    private readonly resyncs: ResyncService,
    private readonly runTimes: RunTimes,
  ) {}

  @Get('sync')
  @UiPage({
    operationId: 'uiShopSync',
    summary: "A shop's syncing state: paused or not, and its actions",
    errors: ERRORS,
  })
  async sync(@Req() req: UiRequest, @Res() res: Response, @Param('shop') shop: string): Promise<void> {
    const domain = this.shopOf(shop);
    const done = typeof req.query.done === 'string' && DONE.has(req.query.done) ? req.query.done : null;
    const run =
      typeof req.query.run === 'string' && /^[\w-]{1,80}$/.test(req.query.run) ? req.query.run : null;
    const notice =
      run !== null
        ? `Resync of every product started: run ${run}.`
        : done === null
          ? null
          : done === 'not-paused'
            ? `Syncing of ${domain} was not paused: nothing changed.`
            : `Syncing of ${domain} ${done}.`;
    const pause = this.pauses.all().find((p) => p.scope === domain) ?? null;
    const now = this.clock.now();
    const times = (await this.runTimes.of([domain])).get(domain);
    const runs = times === undefined ? '' : shopRunTimesSection(domain, times, now);
    sendHtml(res, 200, shopSyncPage(domain, pause, now, notice, csrfOf(req), runs));
  }

  @Get('pause')
  @UiPage({ operationId: 'uiShopPauseConfirm', summary: "A shop's pause confirm page", errors: ERRORS })
  confirmPause(@Req() req: UiRequest, @Res() res: Response, @Param('shop') shop: string): void {
    sendHtml(res, 200, pauseConfirmPage(this.shopOf(shop), csrfOf(req)));
  }

  @Post('pause')
  @UiAction({
    operationId: 'uiShopPause',
    summary: "Pause a shop's syncing",
    answer: 303,
    errors: ACTION_ERRORS,
    form: UiShopPauseForm,
  })
  async pause(
    @UiForm() form: UiShopPauseForm,
    @Res() res: Response,
    @Param('shop') shop: string,
  ): Promise<void> {
    const domain = this.shopOf(shop);
    const reason = (form.reason ?? '').trim() || 'paused by an operator';
    await this.pauses.pause(domain, reason);
    res.redirect(303, `/admin/ui/shops/${encodeURIComponent(domain)}/sync?done=paused`);
  }

  @Get('resume')
  @UiPage({ operationId: 'uiShopResumeConfirm', summary: "A shop's resume confirm page", errors: ERRORS })
  confirmResume(@Req() req: UiRequest, @Res() res: Response, @Param('shop') shop: string): void {
    sendHtml(res, 200, resumeConfirmPage(this.shopOf(shop), csrfOf(req)));
  }

  @Post('resume')
  @UiAction({
    operationId: 'uiShopResume',
    summary: "Resume a shop's syncing",
    answer: 303,
    errors: ACTION_ERRORS,
  })
  async resume(@Res() res: Response, @Param('shop') shop: string): Promise<void> {
    const domain = this.shopOf(shop);
    const resumed = await this.pauses.resume(domain);
    res.redirect(
      303,
      `/admin/ui/shops/${encodeURIComponent(domain)}/sync?done=${resumed ? 'resumed' : 'not-paused'}`,
    );
  }

  @Get('resync')
  @UiPage({
    operationId: 'uiShopResyncConfirm',
    summary: "A whole shop's resync confirm page",
    errors: ERRORS,
  })
  confirmResync(@Req() req: UiRequest, @Res() res: Response, @Param('shop') shop: string): void {
    sendHtml(res, 200, shopResyncConfirmPage(this.shopOf(shop), csrfOf(req)));
  }

  @Post('resync')
  @UiAction({
    operationId: 'uiShopResync',
    summary: 'Resync every product of a shop',
    answer: 303,
    errors: ACTION_ERRORS,
  })
  async resync(@Res() res: Response, @Param('shop') shop: string): Promise<void> {
    const domain = this.shopOf(shop);
    const run = await this.resyncs.start(domain, null);
    res.redirect(303, `/admin/ui/shops/${encodeURIComponent(domain)}/sync?run=${encodeURIComponent(run.id)}`);
  }

  private shopOf(shop: string): string {
    const found = this.shops.find(shop);
    if (!found)
      throw new ConnectorError(ConnectorErrorCode.BAD_REQUEST, 'Name a shop this connector serves.', {
        parameter: 'shop',
      });
    return found.domain;
  }
}
