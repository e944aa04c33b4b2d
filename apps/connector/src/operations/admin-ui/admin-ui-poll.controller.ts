import { Controller, Get, Post, Query, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Clock } from '#lib/clock';
import { EnrichmentPollScheduler } from '../../write-back/poll/enrichment-poll-scheduler.service.js';
import { AdminUiFilter } from './admin-ui.filter.js';
import { AdminUiGuard } from './admin-ui.guard.js';
import { pollPage } from './ui-action-pages.js';
import { UiAction, UiPage, UiQuery } from './ui-openapi.decorators.js';
import type { UiRequest } from './ui-request.js';
import { csrfOf, sendHtml } from './ui-respond.js';

const POLL_ID = /^poll-[0-9a-f-]{36}$/;

/**
 * Why: starting an enrichment poll from the web view: a page says what a poll does (GET, changes
 * nothing), its form POSTs with the session's CSRF token, and the page then shows the poll's
 * state (`?poll=`), read from the same scheduler as `POST /admin/enrichment/poll`.
 */
@ApiTags('admin-ui')
@Controller('admin/ui/enrichment/poll')
@UseFilters(AdminUiFilter)
@UseGuards(AdminUiGuard)
export class AdminUiPollController {
  constructor(
    private readonly polls: EnrichmentPollScheduler,
    private readonly clock: Clock,
  ) {}

  @Get()
  @UiPage({
    operationId: 'uiPollPage',
    summary: "The enrichment poll's confirm page and a started poll's state",
    errors: [400, 404, 409],
  })
  @UiQuery('poll', 'A poll id.')
  async show(@Req() req: UiRequest, @Res() res: Response, @Query('poll') poll?: string): Promise<void> {
    const status = poll !== undefined && POLL_ID.test(poll) ? await this.polls.status(poll) : null;
    sendHtml(res, 200, pollPage(status, this.clock.now(), csrfOf(req)));
  }

  @Post()
  @UiAction({
    operationId: 'uiPoll',
    summary: 'Start an enrichment poll now',
    answer: 303,
    errors: [400, 403, 404, 409],
  })
  async start(@Res() res: Response): Promise<void> {
    const id = await this.polls.requestNow();
    res.redirect(303, `/admin/ui/enrichment/poll?poll=${encodeURIComponent(id)}`);
  }
}
