import { Controller, Get, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import { ConnectorError } from '../../platform/http/connector.error.js';
import { ConnectorErrorCode } from '../../platform/http/connector-error-code.js';
import { EnrichmentPollScheduler, type PollStatus } from '../../write-back/poll/enrichment-poll-scheduler.js';
import { type OverwriteQueued, OverwriteRequests } from '../../write-back/push/overwrite-requests.js';
import { AdminTokenGuard } from './admin-token.guard.js';

const POLL_ID = /^poll-[0-9a-f-]{36}$|^repeat:[\w:.-]{1,200}$/;

/**
 * The write-back over HTTP (README, "Write-back"): enqueue an enrichment poll now, ask whether it
 * has finished (what it found, how much of its push work is done), and let one product's values
 * overwrite a merchant's edits once. Admin token required.
 */
@Controller('admin/enrichment')
@UseGuards(AdminTokenGuard)
export class AdminEnrichmentController {
  constructor(
    private readonly polls: EnrichmentPollScheduler,
    private readonly overwrites: OverwriteRequests,
  ) {}

  /** Enqueues a poll of every shop now; answers its id (it runs in the background). */
  @Post('poll')
  @HttpCode(200)
  async pollNow(): Promise<{ id: string; status: 'queued' }> {
    return { id: await this.polls.requestNow(), status: 'queued' };
  }

  @Get('poll/:id')
  async status(@Param('id') id: string): Promise<PollStatus> {
    const status = POLL_ID.test(id) ? await this.polls.status(id) : null;
    if (!status) throw new ConnectorError(ConnectorErrorCode.NOT_FOUND, `No enrichment poll ${id}.`);
    return status;
  }

  /** `?shop=&productId=[&attribute=a,b]`: one push that may write over the merchant's edits. */
  @Post('overwrite')
  @HttpCode(200)
  async overwrite(@Query() query: Record<string, unknown>): Promise<OverwriteQueued> {
    const text = (name: string) => (typeof query[name] === 'string' ? (query[name] as string) : '');
    const attributes = text('attribute')
      .split(',')
      .map((a) => a.trim())
      .filter((a) => a !== '');
    return this.overwrites.request(text('shop').toLowerCase(), text('productId'), attributes);
  }
}
