import {
  Body,
  Controller,
  Get,
  HttpCode,
  Param,
  Post,
  Query,
  UseGuards,
  UseInterceptors,
} from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Clock } from '#lib/clock';
import { DriftService } from '../../drift/drift.service.js';
import { type DriftRepairOptions, DriftRepairs } from '../../drift/drift-repairs.service.js';
import { DriftReportDto, driftReportDto } from '../../drift/drift-report.dto.js';
import {
  DriftReportListDto,
  DriftReportListQuery,
  driftReportSummary,
} from '../../drift/drift-report-list.dto.js';
import { DRIFT_KINDS } from '../../drift/model/drift-finding.js';
import { DriftReportsRepository, type DriftSelection } from '../../drift/store/drift-reports.repository.js';
import { ConnectorError } from '../../platform/http/connector.error.js';
import { ApiConnectorErrors } from '../../platform/http/connector-error.dto.js';
import { ConnectorErrorCode } from '../../platform/http/connector-error-code.js';
import { Shops } from '../../shops/shops.js';
import { AdminJsonBodyInterceptor } from './admin-json-body.interceptor.js';
import { AdminTokenGuard } from './admin-token.guard.js';
import { catalogUnavailable } from './catalog-unavailable.js';
import { DriftRepairsBody, DriftRepairsDto } from './drift-repairs.dto.js';

const REPORT_ID = ApiParam({ name: 'id', schema: { type: 'string', pattern: '^[1-9][0-9]*$' } });

/**
 * Why: drift reports over HTTP (README, "Drift report"): run one for a shop now, and read a
 * report with its findings, and repair the findings an operator chose (`{"ids": [...]}` or
 * `{"kind": "orphan"}`, with `"preview": true` to run nothing and read what each would do, and
 * `"confirmLoss": [skuId, ...]` naming the records whose approved enrichment may be deleted).
 * While the catalog's breaker is open, a report or a repair answers 503 `catalog_unavailable`
 * with the breaker's state and when to retry. Every route needs the admin token.
 */
@ApiTags('admin')
@ApiBearerAuth('adminToken')
@ApiConnectorErrors(401, 429, 503)
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
  @ApiOperation({
    operationId: 'runDriftReport',
    summary: 'Run a drift report of the shop now: where Shopify, the sku map and the catalog disagree',
    description:
      "Reads the shop (a bulk query above CONNECTOR_BULK_THRESHOLD mapped products, under the shop's bulk lock; id pages below) and the whole catalog account (searches of 500 at bulk priority: floor(records / 500) + 1 searches), compares them with the sku map, and stores the report beside the previous one (new, still open, resolved). A record counts as claimed when a map row of any shop the connector serves holds it (read after the catalog scan). An orphan's repair is delete-record only when the connector can prove the record is its own leftover (its derived <prefix>:product:<id> for a product Shopify no longer has, a prefix no other served shop uses, with its derived variant records); adopt when it names a product of the shop; else review (never deleted). Nothing is repaired. 503 catalog_unavailable (with Retry-After, details.reason and details.retryAt) while the catalog's breaker is open.",
  })
  @ApiParam({ name: 'shop', schema: { type: 'string' } })
  @ApiOkResponse({ type: DriftReportDto })
  @ApiConnectorErrors(404)
  async run(@Param('shop') shop: string): Promise<DriftReportDto> {
    const domain = shop.toLowerCase();
    if (!this.shops.find(domain)) {
      throw new ConnectorError(ConnectorErrorCode.NOT_FOUND, `Unknown shop ${domain}.`, { shop: domain });
    }
    const { report } = await this.drift.report(domain).catch(catalogUnavailable(this.clock));
    return driftReportDto(report, await this.reports.findingsOf(report.id));
  }

  @Get('drift')
  @ApiOperation({
    operationId: 'listDriftReports',
    summary: 'The stored drift reports, newest first: when, whose, how many findings of each kind',
  })
  @ApiOkResponse({ type: DriftReportListDto })
  @ApiConnectorErrors(400)
  async list(@Query() query: DriftReportListQuery): Promise<DriftReportListDto> {
    const reports = await this.reports.list(query.shop?.toLowerCase(), query.limit ?? 20);
    return { items: reports.map(driftReportSummary) };
  }

  @Get('drift/:id')
  @ApiOperation({
    operationId: 'getDriftReport',
    summary: 'A drift report with its findings, each with its repair',
  })
  @REPORT_ID
  @ApiOkResponse({ type: DriftReportDto })
  @ApiConnectorErrors(404)
  async show(@Param('id') id: string): Promise<DriftReportDto> {
    const report = await this.reports.report(id);
    if (!report) throw new ConnectorError(ConnectorErrorCode.NOT_FOUND, `No drift report ${id}.`, { id });
    return driftReportDto(report, await this.reports.findingsOf(report.id));
  }

  @Post('drift/:id/repairs')
  @HttpCode(200)
  @UseInterceptors(AdminJsonBodyInterceptor)
  @ApiOperation({
    operationId: 'repairDriftFindings',
    summary: 'Repair the findings an operator chose: body {"ids": [...]} or {"kind": "<kind>"}',
    description:
      "resync enqueues the product's sync (reason drift; a record-gone finding's record is created again under a new skuId: its enrichment is lost and values already written back to Shopify stay, as effect says); delete-record deletes the orphan or duplicate from the catalog after re-checking it against the catalog and the whole sku map now: refused, with the reason, when the record is gone, claimed now, not provably the connector's own (an orphan), when no claimed record holds a duplicate's supplierSku any more, or in shadow mode; a record holding approved enrichment answers needs-confirmation (loses names the attributes) unless confirmLoss names its skuId; review (an orphan whose owner cannot be proven) is always refused; adopt links an orphan to the product its supplierSku names and syncs it (a product with options whole: its orphan variant records <prefix>:variant:<id> with it; not-adoptable, with the reason, when it cannot); retract (no-longer-approved) runs the product's write-back now, taking the value out of Shopify and putting back the merchant's earlier one; accept-merchant (written-back-differs) keeps the merchant's edit (the target becomes the merchant's) and enqueues the product's sync. retract and accept-merchant are refused for a shop in shadow mode; failed says why a repair did not take. A finding already repaired is left.",
  })
  @REPORT_ID
  @ApiOkResponse({ type: DriftRepairsDto })
  @ApiConnectorErrors(400, 404, 413)
  async repair(@Param('id') id: string, @Body() body: DriftRepairsBody): Promise<DriftRepairsDto> {
    const repairs = await this.repairs
      .repair(id, selection(body), repairOptions(body))
      .catch(catalogUnavailable(this.clock));
    if (!repairs) throw new ConnectorError(ConnectorErrorCode.NOT_FOUND, `No drift report ${id}.`, { id });
    return { repairs };
  }
}

/** The body's choice: `{"ids": ["12", ...]}` (findings of the report) or `{"kind": "<kind>"}`. */
function selection(given: DriftRepairsBody): DriftSelection {
  if (given.ids !== undefined) return { ids: given.ids };
  if (given.kind !== undefined) return { kind: given.kind };
  throw new ConnectorError(
    ConnectorErrorCode.BAD_REQUEST,
    `Choose findings: {"ids": [...]} or {"kind": one of ${DRIFT_KINDS.join(', ')}}.`,
    { parameter: 'body' },
  );
}

/** The body's `preview` (true: run nothing) and `confirmLoss` (skuIds). */
function repairOptions(given: DriftRepairsBody): DriftRepairOptions {
  return { preview: given.preview === true, confirmLoss: given.confirmLoss ?? [] };
}
