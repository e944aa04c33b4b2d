import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Length, Matches, Max, Min } from 'class-validator';
import type { PollStatus } from '../../write-back/poll/enrichment-poll-scheduler.service.js';
import type { OverwriteQueued } from '../../write-back/push/overwrite-requests.service.js';
import type { PollRunCounts } from '../../write-back/store/enrichment-poll-run.entity.js';

const COUNT_PROPERTIES = Object.fromEntries(
  ['found', 'unmapped', 'changed', 'products', 'rechecked', 'agedOut', 'watched', 'calls'].map((k) => [
    k,
    { type: 'integer', minimum: 0 },
  ]),
);

/** `POST /admin/enrichment/overwrite`'s query: the product, and the attributes allowed to overwrite. */
export class OverwriteQuery {
  @ApiProperty({ description: 'The shop (`<name>.myshopify.com`).' })
  @IsString()
  @Length(1, 500)
  shop!: string;

  @ApiProperty({ pattern: '^[1-9][0-9]*$' })
  @IsString()
  @Matches(/^[1-9]\d{0,19}$/, { message: 'productId must be a Shopify product id.' })
  productId!: string;

  @ApiPropertyOptional({ description: 'Comma-separated write-back attributes (default: all).' })
  @IsOptional()
  @IsString()
  attribute?: string;
}

/** Why: `POST /admin/enrichment/poll` answers the queued poll's id. */
@ApiSchema({ name: 'EnrichmentPollQueued' })
export class EnrichmentPollQueuedDto {
  @ApiProperty() id!: string;
  @ApiProperty({ enum: ['queued'] }) status!: 'queued';
}

/** Why: `POST /admin/enrichment/overwrite` answers the push it queued. */
@ApiSchema({ name: 'EnrichmentOverwrite' })
export class EnrichmentOverwriteDto implements OverwriteQueued {
  @ApiProperty() shop!: string;
  @ApiProperty() productId!: string;
  @ApiProperty({ type: [String], description: 'Empty: every write-back attribute.' }) attributes!: string[];
  @ApiProperty({ enum: ['queued'] }) status!: 'queued';
}

/** Why: a poll's push work: products still waiting for their push job, and done. */
@ApiSchema({ name: 'EnrichmentPollPushes' })
export class EnrichmentPollPushesDto {
  @ApiProperty({ type: 'integer' }) pending!: number;
  @ApiProperty({ type: 'integer' }) done!: number;
}

/** Why: `GET /admin/enrichment/poll/{id}`: whether a poll finished, what it found, its push work. */
@ApiSchema({ name: 'EnrichmentPoll' })
export class EnrichmentPollDto implements PollStatus {
  @ApiProperty() id!: string;
  @ApiProperty({ enum: ['schedule', 'early', 'admin'] }) trigger!: PollStatus['trigger'];
  @ApiProperty({
    enum: ['queued', 'running', 'finished', 'paused', 'failed'],
    description:
      "paused: finished without polling a shop, each waiting for its catalog (its account's breaker open, no catalog key): counts.held says why; not a failure.",
  })
  status!: PollStatus['status'];
  @ApiProperty({ format: 'date-time' }) requestedAt!: string;
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true }) startedAt!: string | null;
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true }) finishedAt!: string | null;
  @ApiProperty({
    type: 'object',
    description: 'What the poll found (absent until it finished).',
    properties: {
      ...COUNT_PROPERTIES,
      shops: {
        type: 'object',
        description:
          'Each shop polled: its part of the counts, and its lag after the poll (seconds; null before any checkpoint).',
        additionalProperties: {
          type: 'object',
          properties: { ...COUNT_PROPERTIES, lagSeconds: { type: 'number', nullable: true } },
        },
      },
      held: {
        type: 'object',
        description:
          "Each shop held, not polled, while its catalog work waits (its account's breaker open, no catalog key): why. Its checkpoints stay for the next poll.",
        additionalProperties: { type: 'string' },
      },
    },
  })
  counts!: PollRunCounts;
  @ApiProperty({ type: EnrichmentPollPushesDto }) pushes!: EnrichmentPollPushesDto;
  @ApiProperty({ type: 'string', nullable: true }) error!: string | null;
}

/** The longest window `GET /admin/enrichment/poll-budget` looks over: 30 days, as the web view's pages. */
const MAX_POLL_BUDGET_MINUTES = 720 * 60;

/** `GET /admin/enrichment/poll-budget`'s query: the window. */
export class PollBudgetQuery {
  @ApiPropertyOptional({
    description: 'The window: the last this many minutes (default 60).',
    type: 'integer',
    minimum: 1,
    maximum: MAX_POLL_BUDGET_MINUTES,
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_POLL_BUDGET_MINUTES)
  minutes?: number;
}

/** Why: a figure per poll trigger: the schedule's, the early polls', an operator's. */
@ApiSchema({ name: 'PollTriggerCounts' })
export class PollTriggerCountsDto {
  @ApiProperty({ type: 'integer', minimum: 0 }) schedule!: number;
  @ApiProperty({ type: 'integer', minimum: 0 }) early!: number;
  @ApiProperty({ type: 'integer', minimum: 0 }) admin!: number;
}

/** Why: one account's enrichment polls over the window, against its budget and the bound. */
@ApiSchema({ name: 'AccountPollShare' })
export class AccountPollShareDto {
  @ApiProperty({ description: 'The catalog account (`<baseUrl>#<fingerprint>`).' }) account!: string;
  @ApiProperty({ type: [String] }) shops!: string[];
  @ApiProperty({
    type: PollTriggerCountsDto,
    description: 'Polls that finished their work, per trigger (per shop polled).',
  })
  polls!: PollTriggerCountsDto;
  @ApiProperty({ type: PollTriggerCountsDto, description: 'Their catalog calls, per trigger.' })
  calls!: PollTriggerCountsDto;
  @ApiProperty({ type: 'integer', description: "The account's budget over the window (rate x seconds)." })
  budgetCalls!: number;
  @ApiProperty({ description: "The scheduled and early polls' calls / budgetCalls (0 to 1)." })
  share!: number;
  @ApiProperty({ description: 'CONNECTOR_ENRICHMENT_POLL_BUDGET_SHARE (0 to 1).' }) bound!: number;
}

/** Why: `GET /admin/enrichment/poll-budget`: the enrichment poll's share of each account's budget. */
@ApiSchema({ name: 'PollBudget' })
export class PollBudgetDto {
  @ApiProperty({
    format: 'date-time',
    description: 'The window: from (the oldest poll kept when later than asked)…',
  })
  from!: string;
  @ApiProperty({ format: 'date-time', description: '…until now.' }) to!: string;
  @ApiProperty({ description: 'The window in seconds (to a tenth).' }) windowSeconds!: number;
  @ApiProperty({ description: "Each account's budget, calls a second." }) ratePerSecond!: number;
  @ApiProperty({ description: 'CONNECTOR_ENRICHMENT_POLL_BUDGET_SHARE.' }) bound!: number;
  @ApiProperty({ description: 'Early polls are on.' }) earlyPolls!: boolean;
  @ApiProperty({ type: [AccountPollShareDto] }) accounts!: AccountPollShareDto[];
}
