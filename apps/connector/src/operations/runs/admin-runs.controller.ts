import { Controller, Get, Param, Query, Res, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiParam, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ApiConnectorErrors } from '../../platform/http/connector-error.dto.js';
import { AdminTokenGuard } from '../admin/admin-token.guard.js';
import { RunHistory } from './run-history.service.js';
import { DEFAULT_RUN_PAGE, RUN_KINDS, RunListDto, RunListQuery } from './runs.dto.js';

/**
 * Why: the run history over HTTP (issue 42): each resync, reconciliation and drift report of a
 * shop, newest first, with its counts, and each run's error report as CSV. Behind the admin token.
 */
@ApiTags('admin')
@ApiBearerAuth('adminToken')
@ApiConnectorErrors(401, 429, 503)
@Controller('admin/runs')
@UseGuards(AdminTokenGuard)
export class AdminRunsController {
  constructor(private readonly history: RunHistory) {}

  @Get()
  @ApiOperation({
    operationId: 'listRuns',
    summary: 'Resync, reconciliation and drift runs, newest first, each with its counts',
    description:
      "A resync or reconciliation counts its listed products by what their sync did (created, updated, deleted, failed, skipped; waiting while it runs; a dry run: what it would do), from the runs' sync records and the failures inbox. A drift report counts its findings (new, resolved since the previous report, repaired). Each run names its web page, its admin API route and its error report.",
  })
  @ApiOkResponse({ type: RunListDto })
  @ApiConnectorErrors(400)
  async list(@Query() query: RunListQuery): Promise<RunListDto> {
    const items = await this.history.list({
      shop: query.shop?.toLowerCase() ?? null,
      kind: query.kind ?? null,
      limit: query.limit ?? DEFAULT_RUN_PAGE,
    });
    return { items };
  }

  @Get(':kind/:id/errors.csv')
  @ApiOperation({
    operationId: 'getRunErrors',
    summary: "A run's error report as CSV: one line per failed product (a drift report: per finding)",
    description:
      "Columns `product_id,title,error_code,error,at`: the product, its title when a sync read it, the error code and the error in words, and when it failed (a drift finding: when the report ran). RFC 4180 quoting; a cell beginning with `=`, `+`, `-` or `@` is prefixed with `'` so that a spreadsheet shows it as text.",
  })
  @ApiParam({ name: 'kind', enum: RUN_KINDS })
  @ApiParam({ name: 'id', schema: { type: 'string', pattern: '^[1-9][0-9]*$' } })
  @ApiProduces('text/csv')
  @ApiOkResponse({ description: 'The error report', content: { 'text/csv': { schema: { type: 'string' } } } })
  @ApiConnectorErrors(404)
  async errors(
    @Param('kind') kind: string,
    @Param('id') id: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<string> {
    const report = await this.history.errorReport(kind, id);
    res.type('text/csv; charset=utf-8');
    res.setHeader('Content-Disposition', `attachment; filename="${report.filename}"`);
    return report.csv;
  }
}
