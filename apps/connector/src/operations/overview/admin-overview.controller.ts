import { Controller, Get, UseGuards } from '@nestjs/common';
import { AdminTokenGuard } from '../admin/admin-token.guard.js';
import type { OverviewDto } from './overview.dto.js';
import { OverviewService } from './overview.service.js';

/** `GET /admin/overview`: each shop's state (healthy, degraded, failing) with its reasons, and the numbers now. */
@Controller('admin')
@UseGuards(AdminTokenGuard)
export class AdminOverviewController {
  constructor(private readonly overview: OverviewService) {}

  @Get('overview')
  view(): Promise<OverviewDto> {
    return this.overview.overview();
  }
}
