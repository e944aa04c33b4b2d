import { Controller, Get, Param, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Clock } from '#lib/clock';
import { Doctor } from '../admin/doctor.service.js';
import { AdminUiFilter } from './admin-ui.filter.js';
import { AdminUiGuard } from './admin-ui.guard.js';
import { doctorPage } from './ui-doctor-pages.js';
import { UiPage, UiPathParam } from './ui-openapi.decorators.js';
import type { UiRequest } from './ui-request.js';
import { csrfOf, sendHtml } from './ui-respond.js';

/** Why: `connector doctor`'s checks of one shop in the web view, linked from the shop's page. */
@ApiTags('admin-ui')
@Controller('admin/ui/shops/:shop')
@UseFilters(AdminUiFilter)
@UseGuards(AdminUiGuard)
@UiPathParam('shop')
export class AdminUiDoctorController {
  constructor(
    private readonly doctor: Doctor,
    private readonly clock: Clock,
  ) {}

  @Get('doctor')
  @UiPage({
    operationId: 'uiShopDoctor',
    summary:
      "A shop's deployment checks (as `GET /admin/doctor?shop=`): public URL, token renewal, scopes, webhooks, catalog key, mapping gaps, clock; each passing or naming its fix",
    errors: [404],
  })
  async page(@Req() req: UiRequest, @Res() res: Response, @Param('shop') shop: string): Promise<void> {
    const report = await this.doctor.examine(shop);
    const domain = report.shops[0] ?? shop;
    sendHtml(res, 200, doctorPage(domain, report, this.clock.now(), csrfOf(req)));
  }
}
