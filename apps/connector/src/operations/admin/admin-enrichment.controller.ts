import { Controller, Get, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Clock } from '#lib/clock';
import { ConnectorError } from '../../platform/http/connector.error.js';
import { ApiConnectorErrors } from '../../platform/http/connector-error.dto.js';
import { ConnectorErrorCode } from '../../platform/http/connector-error-code.js';
import { EnrichmentPollScheduler } from '../../write-back/poll/enrichment-poll-scheduler.service.js';
import { PollBudgetShares } from '../../write-back/poll/poll-budget-shares.service.js';
import { OverwriteRequests } from '../../write-back/push/overwrite-requests.service.js';
import { AdminTokenGuard } from './admin-token.guard.js';
import {
  EnrichmentOverwriteDto,
  EnrichmentPollDto,
  EnrichmentPollQueuedDto,
  OverwriteQuery,
  PollBudgetDto,
  PollBudgetQuery,
} from './enrichment.dto.js';

const POLL_ID = /^poll-(early-)?[0-9a-f-]{36}$|^repeat:[\w:.-]{1,200}$/;

/**
 * The write-back over HTTP (README, "Write-back"): enqueue an enrichment poll now, ask whether it
 * has finished (what it found, how much of its push work is done), and let one product's values
 * overwrite a merchant's edits once. Admin token required.
 */
@ApiTags('admin')
@ApiBearerAuth('adminToken')
@ApiConnectorErrors(401, 429, 503)
@Controller('admin/enrichment')
@UseGuards(AdminTokenGuard)
export class AdminEnrichmentController {
  constructor(
    private readonly polls: EnrichmentPollScheduler,
    private readonly overwrites: OverwriteRequests,
    private readonly shares: PollBudgetShares,
    private readonly clock: Clock,
  ) {}

  /** Enqueues a poll of every shop now; answers its id (it runs in the background). */
  @Post('poll')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'pollEnrichmentNow',
    summary: 'Enqueue an enrichment poll of every shop now; answers its id',
    description:
      'Finds finished enrichments and approvals in the catalog and enqueues the write-back of each product.',
  })
  @ApiOkResponse({ type: EnrichmentPollQueuedDto })
  async pollNow(): Promise<EnrichmentPollQueuedDto> {
    return { id: await this.polls.requestNow(), status: 'queued' };
  }

  @Get('poll/:id')
  @ApiOperation({
    operationId: 'getEnrichmentPoll',
    summary: 'Whether a poll has finished, what it found, and how much of its push work is done',
  })
  @ApiParam({ name: 'id', schema: { type: 'string' } })
  @ApiOkResponse({ type: EnrichmentPollDto })
  @ApiConnectorErrors(404)
  async status(@Param('id') id: string): Promise<EnrichmentPollDto> {
    const status = POLL_ID.test(id) ? await this.polls.status(id) : null;
    if (!status) throw new ConnectorError(ConnectorErrorCode.NOT_FOUND, `No enrichment poll ${id}.`);
    return status;
  }

  /** The poll's share of each account's budget over the last `minutes` (the catalog calls page's table). */
  @Get('poll-budget')
  @ApiOperation({
    operationId: 'getEnrichmentPollBudget',
    summary:
      "The enrichment poll's share of each catalog account's budget over a window: the scheduled and early polls' calls against the bound",
  })
  @ApiOkResponse({ type: PollBudgetDto })
  @ApiConnectorErrors(400)
  async pollBudget(@Query() query: PollBudgetQuery): Promise<PollBudgetDto> {
    const view = await this.shares.since(new Date(this.clock.now() - (query.minutes ?? 60) * 60_000));
    return { ...view, from: view.from.toISOString(), to: view.to.toISOString() };
  }

  /** `?shop=&productId=[&attribute=a,b]`: one push that may write over the merchant's edits. */
  @Post('overwrite')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'overwriteMerchantEdits',
    summary: "Push one product's catalog values once, over the targets a merchant edited",
    description:
      'Merchant edits win unless an operator says so: this enqueues one push of the product that may ' +
      'write over merchant-owned targets of the given write-back attributes (all when none given).',
  })
  @ApiOkResponse({ type: EnrichmentOverwriteDto })
  @ApiConnectorErrors(400)
  async overwrite(@Query() query: OverwriteQuery): Promise<EnrichmentOverwriteDto> {
    const attributes = (query.attribute ?? '')
      .split(',')
      .map((a) => a.trim())
      .filter((a) => a !== '');
    return this.overwrites.request(query.shop.toLowerCase(), query.productId, attributes);
  }
}
