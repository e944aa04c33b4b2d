import { Controller, Get, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import type { Response } from 'express';
import { ShopEntries } from '../admin/shop-entries.js';
import { OverviewService } from '../overview/overview.service.js';
import { AdminUiFilter } from './admin-ui.filter.js';
import { AdminUiGuard } from './admin-ui.guard.js';
import { overviewPage, shopsPage } from './overview-pages.js';
import type { UiRequest } from './ui-request.js';
import { sendPage, sessionCsrf } from './ui-response.js';

/** Why: the view's landing page (each shop's state, the numbers now, 24 hours of charts) and the shops page. */
@Controller('admin/ui')
@UseFilters(AdminUiFilter)
@UseGuards(AdminUiGuard)
export class AdminUiOverviewController {
  constructor(
    private readonly overview: OverviewService,
    private readonly entries: ShopEntries,
  ) {}

  @Get()
  async landing(@Req() req: UiRequest, @Res() res: Response): Promise<void> {
    const [view, charts] = await Promise.all([this.overview.overview(), this.overview.charts()]);
    sendPage(res, overviewPage(view, charts, sessionCsrf(req)));
  }

  @Get('shops')
  async shops(@Req() req: UiRequest, @Res() res: Response): Promise<void> {
    sendPage(res, shopsPage(await this.entries.all(), sessionCsrf(req)));
  }
}
