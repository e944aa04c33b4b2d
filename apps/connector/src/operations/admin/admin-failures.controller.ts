import {
  Body,
  Controller,
  Get,
  HttpCode,
  Param,
  Post,
  Query,
  UseGuards,
  UseInterceptors,
} from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Failure } from '../../platform/failures/failure.entity.js';
import { FailureNotOpenError, FailuresService } from '../../platform/failures/failures.service.js';
import { ConnectorError } from '../../platform/http/connector.error.js';
import { ApiConnectorErrors } from '../../platform/http/connector-error.dto.js';
import { ConnectorErrorCode } from '../../platform/http/connector-error-code.js';
import { ConnectorMetrics } from '../metrics/connector-metrics.service.js';
import { AdminJsonBodyInterceptor } from './admin-json-body.interceptor.js';
import { AdminTokenGuard } from './admin-token.guard.js';
import { resolveMany } from './bulk-failures.js';
import { BulkDismissDto, BulkReplayDto, FailureDto, FailurePageDto, failureDto } from './failure.dto.js';
import {
  DismissFailuresBody,
  dismissTargetsOf,
  FailureListQuery,
  FailureReplayQuery,
  failureFilterOf,
  failureIdOf,
  notFound,
  pageOf,
} from './failure-query.js';

const FAILURE_ID = ApiParam({ name: 'id', schema: { type: 'string', pattern: '^[1-9][0-9]*$' } });

/**
 * The failures inbox over HTTP (README, "Admin API"): list with filters, show one, replay one or
 * every open one matching a filter, dismiss. Answers are DTOs; every route needs the admin token.
 */
@ApiTags('admin')
@ApiBearerAuth('adminToken')
@ApiConnectorErrors(401, 429, 503)
@Controller('admin/failures')
@UseGuards(AdminTokenGuard)
export class AdminFailuresController {
  constructor(
    private readonly failures: FailuresService,
    private readonly metrics: ConnectorMetrics,
  ) {}

  @Get()
  @ApiOperation({ operationId: 'listFailures', summary: 'The failures inbox, latest failure first' })
  @ApiOkResponse({ type: FailurePageDto })
  @ApiConnectorErrors(400)
  async list(@Query() query: FailureListQuery): Promise<FailurePageDto> {
    const filter = failureFilterOf(query);
    const page = pageOf(query);
    const { items, total } = await this.failures.search(filter, page);
    return { items: items.map(failureDto), total, ...page };
  }

  /** Replays up to `limit` open failures matching the filter, oldest-listed last. */
  @Post('replay')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'replayMatchingFailures',
    summary: 'Replay up to `limit` open failures matching the filter',
  })
  @ApiOkResponse({ type: BulkReplayDto })
  @ApiConnectorErrors(400)
  async replayMatching(@Query() query: FailureReplayQuery): Promise<BulkReplayDto> {
    const open = { ...failureFilterOf(query), state: 'open' as const };
    const { items } = await this.failures.search(open, { limit: pageOf(query).limit, offset: 0 });
    const answer: BulkReplayDto = { replayed: [], errors: [], remaining: 0 };
    for (const failure of items) {
      try {
        await this.failures.replay(failure.id);
        this.metrics.failureResolved(failure.jobKind, 'replayed');
        answer.replayed.push(failure.id);
      } catch (error) {
        if (error instanceof FailureNotOpenError) continue; // resolved meanwhile by someone else
        answer.errors.push({ id: failure.id, message: String((error as Error).message).slice(0, 300) });
      }
    }
    answer.remaining = (await this.failures.search(open, { limit: 1, offset: 0 })).total;
    return answer;
  }

  /**
   * Dismisses the failures named in the body's `ids`, or up to `limit` open ones matching its
   * filter (`shop`, `jobKind`, `subject`); answers how many and which, and those skipped.
   */
  @Post('dismiss')
  @HttpCode(200)
  @UseInterceptors(AdminJsonBodyInterceptor)
  @ApiOperation({
    operationId: 'dismissFailures',
    summary:
      'Dismiss the failures named by `ids`, or up to `limit` open ones matching `shop` / `jobKind` / `subject`',
  })
  @ApiOkResponse({ type: BulkDismissDto })
  @ApiConnectorErrors(400, 413)
  async dismissMany(@Body() body: DismissFailuresBody): Promise<BulkDismissDto> {
    const target = dismissTargetsOf(body);
    const ids =
      'ids' in target
        ? target.ids
        : (
            await this.failures.search(
              { ...target.filter, state: 'open' },
              { limit: target.limit, offset: 0 },
            )
          ).items.map((failure) => failure.id);
    const { done, skipped } = await resolveMany(this.failures, this.metrics, ids, 'dismissed');
    return { dismissed: done.length, ids: done, skipped };
  }

  @Get(':id')
  @ApiOperation({ operationId: 'getFailure', summary: 'One failure' })
  @FAILURE_ID
  @ApiOkResponse({ type: FailureDto })
  @ApiConnectorErrors(404)
  async show(@Param('id') id: string): Promise<FailureDto> {
    return failureDto(await this.existing(id));
  }

  @Post(':id/replay')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'replayFailure',
    summary: "Run an open failure's job again (it becomes `replayed`)",
  })
  @FAILURE_ID
  @ApiOkResponse({ type: FailureDto })
  @ApiConnectorErrors(404, 409)
  async replay(@Param('id') id: string): Promise<FailureDto> {
    const failure = await this.resolve(id, (openId) => this.failures.replay(openId));
    this.metrics.failureResolved(failure.jobKind, 'replayed');
    return failureDto(failure);
  }

  @Post(':id/dismiss')
  @HttpCode(200)
  @ApiOperation({ operationId: 'dismissFailure', summary: 'Close an open failure without running it again' })
  @FAILURE_ID
  @ApiOkResponse({ type: FailureDto })
  @ApiConnectorErrors(404, 409)
  async dismiss(@Param('id') id: string): Promise<FailureDto> {
    const failure = await this.resolve(id, (openId) => this.failures.dismiss(openId));
    this.metrics.failureResolved(failure.jobKind, 'dismissed');
    return failureDto(failure);
  }

  private async existing(id: string): Promise<Failure> {
    const failure = await this.failures.get(failureIdOf(id));
    if (failure === null) throw notFound(id);
    return failure;
  }

  /** 404 for an unknown id, 409 `failure_not_open` for one already replayed or dismissed. */
  private async resolve(id: string, action: (id: string) => Promise<Failure>): Promise<Failure> {
    const failure = await this.existing(id);
    try {
      return await action(failure.id);
    } catch (error) {
      if (!(error instanceof FailureNotOpenError)) throw error;
      const { state } = await this.existing(id);
      throw new ConnectorError(
        ConnectorErrorCode.FAILURE_NOT_OPEN,
        `Failure ${id} is ${state}: only open failures can be replayed or dismissed.`,
        { state },
      );
    }
  }
}
