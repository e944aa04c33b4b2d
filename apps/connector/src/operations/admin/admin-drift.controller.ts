import { Controller, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { DriftService } from '../../drift/drift.service.js';
import { type DriftReportDto, driftReportDto } from '../../drift/drift-report.dto.js';
import { DriftReportsRepository } from '../../drift/store/drift-reports.repository.js';
import { ConnectorError } from '../../platform/http/connector.error.js';
import { ConnectorErrorCode } from '../../platform/http/connector-error-code.js';
import { Shops } from '../../shops/shops.js';
import { AdminTokenGuard } from './admin-token.guard.js';

/**
 * Why: drift reports over HTTP (README, "Drift report"): run one for a shop now, and read a
 * report with its findings. Every route needs the admin token.
 */
@Controller('admin')
@UseGuards(AdminTokenGuard)
export class AdminDriftController {
  constructor(
    private readonly drift: DriftService,
    private readonly reports: DriftReportsRepository,
    private readonly shops: Shops,
  ) {}

  @Post('shops/:shop/drift')
  @HttpCode(200)
  async run(@Param('shop') shop: string): Promise<DriftReportDto> {
    const domain = shop.toLowerCase();
    if (!this.shops.find(domain)) {
      throw new ConnectorError(ConnectorErrorCode.NOT_FOUND, `Unknown shop ${domain}.`, { shop: domain });
    }
    const { report } = await this.drift.report(domain);
    return driftReportDto(report, await this.reports.findingsOf(report.id));
  }

  @Get('drift/:id')
  async show(@Param('id') id: string): Promise<DriftReportDto> {
    const report = await this.reports.report(id);
    if (!report) throw new ConnectorError(ConnectorErrorCode.NOT_FOUND, `No drift report ${id}.`, { id });
    return driftReportDto(report, await this.reports.findingsOf(report.id));
  }
}
