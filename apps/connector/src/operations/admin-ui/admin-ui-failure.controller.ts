import { Controller, Get, Param, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import {
  ApiCookieAuth,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiProduces,
  ApiResponse,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { Clock } from '#lib/clock';
import { FailuresService } from '../../platform/failures/failures.service.js';
import { failureDto } from '../admin/failure.dto.js';
import { failureIdOf, notFound } from '../admin/failure-query.js';
import { AdminUiFilter } from './admin-ui.filter.js';
import { AdminUiGuard } from './admin-ui.guard.js';
import { failurePage } from './ui-failure-pages.js';
import type { UiRequest } from './ui-request.js';
import { csrfOf, sendHtml } from './ui-respond.js';

const PAGE = { schema: { type: 'string' } } as const;

/**
 * Why: one failure's page in the operators' view (`/admin/ui/failures/{id}`): the failures list,
 * a poll's or run's Subject and a product's timeline lead here. Its replay and dismiss forms post
 * to the inbox's own actions (`AdminUiController`). Registered after the bulk controller, whose
 * `failures/bulk` must not be read as an id.
 */
@ApiTags('admin-ui')
@ApiCookieAuth('adminSession')
@ApiProduces('text/html')
@Controller('admin/ui')
@UseFilters(AdminUiFilter)
@UseGuards(AdminUiGuard)
export class AdminUiFailureController {
  constructor(
    private readonly failures: FailuresService,
    private readonly clock: Clock,
  ) {}

  @Get('failures/:id')
  @ApiOperation({
    operationId: 'uiFailure',
    summary:
      "One failure's page: its cause in words and next step, its history, the raw detail, replay and dismiss",
  })
  @ApiParam({ name: 'id', schema: { type: 'string', pattern: '^[1-9][0-9]*$' } })
  @ApiOkResponse({ description: 'The page', ...PAGE })
  @ApiUnauthorizedResponse({ description: 'Not signed in: the sign-in page', ...PAGE })
  @ApiNotFoundResponse({ description: 'No such failure', ...PAGE })
  @ApiResponse({ status: 503, description: 'The web view is disabled (no CONNECTOR_ADMIN_TOKEN)', ...PAGE })
  async show(@Req() req: UiRequest, @Res() res: Response, @Param('id') id: string): Promise<void> {
    const failure = await this.failures.get(failureIdOf(id));
    if (failure === null) throw notFound(id);
    sendHtml(res, 200, failurePage(failureDto(failure), csrfOf(req), this.clock.now()));
  }
}
