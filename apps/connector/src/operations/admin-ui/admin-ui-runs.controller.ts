import { Controller, Get, Param, Query, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Clock } from '#lib/clock';
import { Shops } from '../../shops/shops.js';
import { RunHistory } from '../runs/run-history.service.js';
import { RUN_KINDS, type RunKind } from '../runs/runs.dto.js';
import { AdminUiFilter } from './admin-ui.filter.js';
import { AdminUiGuard } from './admin-ui.guard.js';
import { UiPage, UiPathParam, UiQuery } from './ui-openapi.decorators.js';
import type { UiRequest } from './ui-request.js';
import { csrfOf, sendHtml } from './ui-respond.js';
import { runPage, runsPage } from './ui-run-pages.js';

const LIST_SIZE = 100;
/** Failed products a run's page lists (the error report holds them all). */
const PAGE_ERRORS = 200;
const KIND_PARAM = UiPathParam('kind', { pattern: `^(${RUN_KINDS.join('|')})$` });
const ID_PARAM = UiPathParam('id', { pattern: '^[1-9][0-9]*$' });

/**
 * Why: the run history in the web view (linked from the navigation and each shop's page): the
 * runs with their counts, a resync's or reconciliation's own page with its failed products, and
 * each run's error report as CSV under the session (the admin API's needs the admin token).
 */
@ApiTags('admin-ui')
@Controller('admin/ui/runs')
@UseFilters(AdminUiFilter)
@UseGuards(AdminUiGuard)
export class AdminUiRunsController {
  constructor(
    private readonly history: RunHistory,
    private readonly shops: Shops,
    private readonly clock: Clock,
  ) {}

  @Get()
  @UiPage({
    operationId: 'uiRuns',
    summary: 'The run history: resyncs, reconciliations and drift reports, newest first, with their counts',
  })
  @UiQuery('shop', 'Only the runs of this shop.')
  @UiQuery('kind', 'Only runs of this kind.', { enum: [...RUN_KINDS] })
  async list(
    @Req() req: UiRequest,
    @Res() res: Response,
    @Query('shop') shop?: string,
    @Query('kind') kind?: string,
  ): Promise<void> {
    const filter = {
      shop: shop ? (this.shops.find(shop)?.domain ?? shop.toLowerCase()) : null,
      kind: (RUN_KINDS as readonly string[]).includes(kind ?? '') ? (kind as RunKind) : null,
    };
    const runs = await this.history.list({ ...filter, limit: LIST_SIZE });
    const shops = this.shops.all.map((s) => s.domain);
    sendHtml(res, 200, runsPage(runs, filter, shops, this.clock.now(), csrfOf(req)));
  }

  @Get(':kind/:id')
  @UiPage({
    operationId: 'uiRun',
    summary: "A run's page: its counts and failed products (a drift report: a 303 to its own page)",
    errors: [404],
    redirect: true,
  })
  @KIND_PARAM
  @ID_PARAM
  async run(
    @Req() req: UiRequest,
    @Res() res: Response,
    @Param('kind') kind: string,
    @Param('id') id: string,
  ): Promise<void> {
    const { summary, errors } = await this.history.run(kind, id, PAGE_ERRORS);
    if (summary.kind === 'drift') {
      res.redirect(303, summary.page);
      return;
    }
    sendHtml(res, 200, runPage(summary, errors, this.clock.now(), csrfOf(req)));
  }

  @Get(':kind/:id/errors.csv')
  @UiPage({
    operationId: 'uiRunErrors',
    summary:
      "A run's error report as CSV, under the session: one line per failed product (drift: per finding)",
    answer: 'text/csv',
    errors: [404],
  })
  @KIND_PARAM
  @ID_PARAM
  async errors(@Res() res: Response, @Param('kind') kind: string, @Param('id') id: string): Promise<void> {
    const report = await this.history.errorReport(kind, id);
    res
      .status(200)
      .type('text/csv; charset=utf-8')
      .setHeader('Content-Disposition', `attachment; filename="${report.filename}"`)
      .setHeader('Cache-Control', 'no-store')
      .end(report.csv);
  }
}
