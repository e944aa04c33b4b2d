import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiConnectorErrors } from '../../platform/http/connector-error.dto.js';
import { AdminTokenGuard } from '../admin/admin-token.guard.js';
import { OverviewQuery } from '../admin/shop-page-query.dto.js';
import { OverviewDto } from './overview.dto.js';
import { OverviewService } from './overview.service.js';

/** `GET /admin/overview`: each shop's state (healthy, degraded, failing) with its reasons, and the numbers now. */
@ApiTags('admin')
@ApiBearerAuth('adminToken')
@ApiConnectorErrors(401, 429, 503)
@Controller('admin')
@UseGuards(AdminTokenGuard)
export class AdminOverviewController {
  constructor(private readonly overview: OverviewService) {}

  @Get('overview')
  @ApiOperation({
    operationId: 'getOverview',
    summary:
      'Each shop\'s state (healthy, degraded, failing) with its reasons in words, and the numbers now (connector README, "Shop states")',
    description:
      'Shops worst first (failing, degraded, healthy; then by domain), 50 a page by default; `state` and `q` filter them, `stateCounts` counts every shop.',
  })
  @ApiOkResponse({ type: OverviewDto })
  @ApiConnectorErrors(400)
  view(@Query() query: OverviewQuery): Promise<OverviewDto> {
    return this.overview.overview(query);
  }
}
