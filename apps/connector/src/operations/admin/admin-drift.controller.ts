import { Controller, Get, HttpCode, Param, Post, Req, UseGuards } from '@nestjs/common';
import type { Request } from 'express';
import { Clock } from '#lib/clock';
import { DriftService } from '../../drift/drift.service.js';
import { type DriftRepairOptions, type DriftRepairOutcome, DriftRepairs } from '../../drift/drift-repairs.js';
import { type DriftReportDto, driftReportDto } from '../../drift/drift-report.dto.js';
import { DRIFT_KINDS, type DriftKind } from '../../drift/model/drift-finding.js';
import { DriftReportsRepository, type DriftSelection } from '../../drift/store/drift-reports.repository.js';
import { ConnectorError } from '../../platform/http/connector.error.js';
import { ConnectorErrorCode } from '../../platform/http/connector-error-code.js';
import { Shops } from '../../shops/shops.js';
import { readAdminJson } from './admin-json-body.js';
import { AdminTokenGuard } from './admin-token.guard.js';
import { catalogUnavailable } from './catalog-unavailable.js';

/**
 * Why: drift reports over HTTP (README, "Drift report"): run one for a shop now, and read a
 * report with its findings, and repair the findings an operator chose (`{"ids": [...]}` or
 * `{"kind": "orphan"}`, with `"preview": true` to run nothing and read what each would do, and
 * `"confirmLoss": [skuId, ...]` naming the records whose approved enrichment may be deleted).
 * While the catalog's breaker is open, a report or a repair answers 503 `catalog_unavailable`
 * with the breaker's state and when to retry. Every route needs the admin token.
 */
@Controller('admin')
@UseGuards(AdminTokenGuard)
export class AdminDriftController {
  constructor(
    private readonly drift: DriftService,
    private readonly reports: DriftReportsRepository,
    private readonly shops: Shops,
    private readonly repairs: DriftRepairs,
    private readonly clock: Clock,
  ) {}

  @Post('shops/:shop/drift')
  @HttpCode(200)
  async run(@Param('shop') shop: string): Promise<DriftReportDto> {
    const domain = shop.toLowerCase();
    if (!this.shops.find(domain)) {
      throw new ConnectorError(ConnectorErrorCode.NOT_FOUND, `Unknown shop ${domain}.`, { shop: domain });
    }
    const { report } = await this.drift.report(domain).catch(catalogUnavailable(this.clock));
    return driftReportDto(report, await this.reports.findingsOf(report.id));
  }

  @Get('drift/:id')
  async show(@Param('id') id: string): Promise<DriftReportDto> {
    const report = await this.reports.report(id);
    if (!report) throw new ConnectorError(ConnectorErrorCode.NOT_FOUND, `No drift report ${id}.`, { id });
    return driftReportDto(report, await this.reports.findingsOf(report.id));
  }

  @Post('drift/:id/repairs')
  @HttpCode(200)
  async repair(@Param('id') id: string, @Req() req: Request): Promise<{ repairs: DriftRepairOutcome[] }> {
    const body = await readAdminJson(req);
    const repairs = await this.repairs
      .repair(id, selection(body), repairOptions(body))
      .catch(catalogUnavailable(this.clock));
    if (!repairs) throw new ConnectorError(ConnectorErrorCode.NOT_FOUND, `No drift report ${id}.`, { id });
    return { repairs };
  }
}

/** The body's choice: `{"ids": ["12", ...]}` (findings of the report) or `{"kind": "<kind>"}`. */
function selection(given: Record<string, unknown>): DriftSelection {
  if (Array.isArray(given.ids) && given.ids.length > 0 && given.ids.every((i) => typeof i === 'string')) {
    return { ids: given.ids as string[] };
  }
  if (typeof given.kind === 'string' && (DRIFT_KINDS as readonly string[]).includes(given.kind)) {
    return { kind: given.kind as DriftKind };
  }
  throw new ConnectorError(
    ConnectorErrorCode.BAD_REQUEST,
    `Choose findings: {"ids": [...]} or {"kind": one of ${DRIFT_KINDS.join(', ')}}.`,
    { parameter: 'body' },
  );
}

/** The body's `preview` (true: run nothing) and `confirmLoss` (skuIds), checked. */
function repairOptions(given: Record<string, unknown>): DriftRepairOptions {
  const { preview, confirmLoss } = given;
  if (preview !== undefined && typeof preview !== 'boolean') {
    throw new ConnectorError(ConnectorErrorCode.BAD_REQUEST, '"preview" must be true or false.', {
      parameter: 'preview',
    });
  }
  if (
    confirmLoss !== undefined &&
    !(Array.isArray(confirmLoss) && confirmLoss.every((s) => typeof s === 'string' && s !== ''))
  ) {
    throw new ConnectorError(
      ConnectorErrorCode.BAD_REQUEST,
      '"confirmLoss" must list the skuIds of the records whose approved enrichment may be deleted.',
      { parameter: 'confirmLoss' },
    );
  }
  return { preview: preview === true, confirmLoss: (confirmLoss as string[] | undefined) ?? [] };
}
