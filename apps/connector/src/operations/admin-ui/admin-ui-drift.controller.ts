import { Controller, Get, Param, Post, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Clock } from '#lib/clock';
import { DriftService } from '../../drift/drift.service.js';
import { DriftRepairs } from '../../drift/drift-repairs.service.js';
import type { DriftReport } from '../../drift/store/drift-report.entity.js';
import { DriftReportsRepository } from '../../drift/store/drift-reports.repository.js';
import { ConnectorError } from '../../platform/http/connector.error.js';
import { ConnectorErrorCode } from '../../platform/http/connector-error-code.js';
import { Shops } from '../../shops/shops.js';
import { AdminUiFilter } from './admin-ui.filter.js';
import { AdminUiGuard } from './admin-ui.guard.js';
import {
  driftChoiceOf,
  driftListPage,
  driftRepairConfirmPage,
  driftRepairResultPage,
  driftReportPage,
  driftRunConfirmPage,
} from './ui-drift-pages.js';
import { UiDriftRepairForm } from './ui-forms.dto.js';
import { UiAction, UiForm, UiPage, UiPathParam, UiQuery } from './ui-openapi.decorators.js';
import type { UiRequest } from './ui-request.js';
import { csrfOf, sendHtml } from './ui-respond.js';

const ERRORS = [400, 404];
const SHOP = UiPathParam('shop', { maxLength: 255 });
const REPORT_ID = UiPathParam('id', { pattern: '^[1-9][0-9]*$' });

/**
 * Why: the drift report in the web view (issue 33): each shop's latest report, running one now
 * (confirmed, then POST with the CSRF token), a report's findings by kind, and choosing repairs
 * (one, a selection, or all of a kind) through a confirm page to a page of what each did. It uses
 * what the admin API's drift routes use (`DriftService`, `DriftRepairs`).
 */
@ApiTags('admin-ui')
@Controller('admin/ui/drift')
@UseFilters(AdminUiFilter)
@UseGuards(AdminUiGuard)
export class AdminUiDriftController {
  constructor(
    private readonly shops: Shops,
    private readonly drift: DriftService,
    private readonly reports: DriftReportsRepository,
    private readonly repairs: DriftRepairs,
    private readonly clock: Clock,
  ) {}

  @Get()
  @UiPage({
    operationId: 'uiDriftList',
    summary: "Each shop's latest drift report, and running one",
    errors: ERRORS,
  })
  async list(@Req() req: UiRequest, @Res() res: Response): Promise<void> {
    const rows = await Promise.all(
      this.shops.all.map(async (s) => ({ shop: s.domain, latest: await this.reports.latest(s.domain) })),
    );
    const open = new Map<string, { new: number; stillOpen: number }>();
    for (const { latest } of rows) {
      if (!latest) continue;
      const findings = await this.reports.findingsOf(latest.id);
      const unrepaired = findings.filter((f) => !f.repairedAt);
      open.set(latest.id, {
        new: unrepaired.filter((f) => f.status === 'new').length,
        stillOpen: unrepaired.filter((f) => f.status === 'still-open').length,
      });
    }
    sendHtml(res, 200, driftListPage(rows, open, this.clock.now(), csrfOf(req)));
  }

  @Get('shops/:shop/run')
  @UiPage({
    operationId: 'uiDriftRunConfirm',
    summary: 'Confirm running a drift report for a shop',
    errors: ERRORS,
  })
  @SHOP
  confirmRun(@Req() req: UiRequest, @Res() res: Response, @Param('shop') shop: string): void {
    sendHtml(res, 200, driftRunConfirmPage(this.shopOf(shop), csrfOf(req)));
  }

  @Post('shops/:shop/run')
  @UiAction({
    operationId: 'uiDriftRun',
    summary: "Run a drift report now; 303 to the report's page",
    answer: 303,
    errors: [400, 403],
  })
  @SHOP
  async run(@Res() res: Response, @Param('shop') shop: string): Promise<void> {
    const { report } = await this.drift.report(this.shopOf(shop));
    res.redirect(303, `/admin/ui/drift/${encodeURIComponent(report.id)}`);
  }

  @Get(':id')
  @UiPage({
    operationId: 'uiDriftReport',
    summary: "A drift report's findings by kind, each with its repair in words",
    errors: ERRORS,
  })
  @REPORT_ID
  async show(@Req() req: UiRequest, @Res() res: Response, @Param('id') id: string): Promise<void> {
    const report = await this.reportOf(id);
    const rows = await this.reports.findingsOf(report.id);
    sendHtml(res, 200, driftReportPage(report, rows, this.clock.now(), csrfOf(req)));
  }

  @Get(':id/repair')
  @UiPage({
    operationId: 'uiDriftRepairConfirm',
    summary: 'Confirm the chosen repairs (one finding, a selection, or all of a kind)',
    errors: ERRORS,
  })
  @REPORT_ID
  @UiQuery('ids', 'Finding ids (repeated or comma-separated).')
  @UiQuery('one', 'One finding id (its own button).')
  @UiQuery('kind', 'Every finding of this kind.')
  async confirmRepair(@Req() req: UiRequest, @Res() res: Response, @Param('id') id: string): Promise<void> {
    const report = await this.reportOf(id);
    const choice = driftChoiceOf(req.query);
    if (!choice) throw notChosen();
    const chosen = (await this.reports.findingsOf(report.id, choice)).filter((r) => !r.repairedAt);
    sendHtml(res, 200, driftRepairConfirmPage(report, choice, chosen, csrfOf(req)));
  }

  @Post(':id/repairs')
  @UiAction({
    operationId: 'uiDriftRepair',
    summary: 'Run the chosen repairs; the page says what each did',
    answer: 'page',
    errors: [400, 403, 404],
    form: UiDriftRepairForm,
  })
  @REPORT_ID
  async repair(
    @Req() req: UiRequest,
    @Res() res: Response,
    @Param('id') id: string,
    @UiForm() form: UiDriftRepairForm,
  ): Promise<void> {
    const report = await this.reportOf(id);
    const choice = driftChoiceOf({ ...form });
    if (!choice) throw notChosen();
    const outcomes =
      (await this.repairs.repair(report.id, choice, { confirmLoss: confirmLossOf(form.confirmLoss) })) ?? [];
    sendHtml(res, 200, driftRepairResultPage(report, outcomes, csrfOf(req)));
  }

  private async reportOf(id: string): Promise<DriftReport> {
    const report = /^\d{1,18}$/.test(id) ? await this.reports.report(id) : null;
    if (!report) throw new ConnectorError(ConnectorErrorCode.NOT_FOUND, `No drift report ${id}.`, { id });
    return report;
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

/** The records whose approved enrichment the operator agreed to lose (the confirm step's hidden field). */
function confirmLossOf(raw: string | undefined): string[] {
  return (raw ?? '')
    .split(',')
    .map((x) => x.trim())
    .filter((x) => x !== '');
}

function notChosen(): ConnectorError {
  return new ConnectorError(
    ConnectorErrorCode.BAD_REQUEST,
    "Choose findings to repair: tick some, use a finding's own button, or all of a kind.",
    { parameter: 'ids' },
  );
}
