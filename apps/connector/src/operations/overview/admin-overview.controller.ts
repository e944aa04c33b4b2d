import { Controller, Get, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiConnectorErrors } from '../../platform/http/connector-error.dto.js';
import { AdminTokenGuard } from '../admin/admin-token.guard.js';
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
  })
  @ApiOkResponse({ type: OverviewDto })
  view(): Promise<OverviewDto> {
    return this.overview.overview();
  }
}
