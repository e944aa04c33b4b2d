import { Controller, Get, Query, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import { ApiCookieAuth, ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Clock } from '#lib/clock';
import { Shops } from '../../shops/shops.js';
import { MappingGapList } from '../admin/mapping-gap-list.service.js';
import { MappingGapsQuery } from '../admin/mapping-gaps.dto.js';
import { AdminUiFilter } from './admin-ui.filter.js';
import { AdminUiGuard } from './admin-ui.guard.js';
import { mappingGapsPage } from './ui-mapping-gap-pages.js';
import type { UiRequest } from './ui-request.js';
import { csrfOf, sendHtml } from './ui-respond.js';

/** Why: the list behind the overview's mapping gaps: a shop's products the mapping cannot fully map, by reason. */
@ApiTags('admin-ui')
@ApiCookieAuth('adminSession')
@Controller('admin/ui')
@UseFilters(AdminUiFilter)
@UseGuards(AdminUiGuard)
export class AdminUiMappingGapsController {
  constructor(
    private readonly list: MappingGapList,
    private readonly shops: Shops,
    private readonly clock: Clock,
  ) {}

  @Get('mapping-gaps')
  @ApiOperation({
    operationId: 'uiMappingGaps',
    summary:
      "A shop's products the mapping cannot fully map: every reason in words with its product count, then the products (titles, reasons), paged, filtered by one reason",
  })
  @ApiProduces('text/html')
  @ApiOkResponse({ description: 'Server-rendered HTML.', schema: { type: 'string' } })
  async page(@Req() req: UiRequest, @Res() res: Response, @Query() query: MappingGapsQuery): Promise<void> {
    const view = await this.list.page(query);
    const shops = this.shops.all.map((s) => s.domain);
    sendHtml(res, 200, mappingGapsPage(view, shops, this.clock.now(), csrfOf(req)));
  }
}
