import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import type { Failure, FailureState } from '../../platform/failures/failure.entity.js';
import { FAILURE_STATES } from './failure-query.js';

/** Why: a failure's error as the admin API shows it. */
@ApiSchema({ name: 'FailureError' })
export class FailureErrorDto {
  @ApiProperty() code!: string;
  @ApiProperty() message!: string;
  @ApiProperty() retryable!: boolean;
}

/** Why: one time a failure happened, as the admin API shows its history. */
@ApiSchema({ name: 'FailureOccurrence' })
export class FailureOccurrenceDto {
  @ApiProperty({ format: 'date-time' }) at!: string;
  @ApiProperty({ type: 'integer', description: 'Attempts the job made that time.' }) attempts!: number;
  @ApiProperty() message!: string;
  @ApiPropertyOptional({ description: 'The job that failed.' }) jobId?: string;
}

/** A failure as the admin API shows it: the entity's facts, not the entity (no ORM object leaks). */
@ApiSchema({ name: 'Failure' })
export class FailureDto {
  @ApiProperty({ pattern: '^[1-9][0-9]*$' }) id!: string;
  @ApiProperty({ example: 'demo.myshopify.com' }) shop!: string;
  @ApiProperty({ example: 'sync-product' }) jobKind!: string;
  @ApiProperty({ description: 'What the job was about (a product sync: the Shopify product id).' })
  subjectKey!: string;
  @ApiProperty({ enum: FAILURE_STATES }) state!: FailureState;
  @ApiProperty({ type: FailureErrorDto }) error!: FailureErrorDto;
  @ApiProperty({ type: 'integer' }) attempts!: number;
  @ApiProperty({ format: 'date-time' }) firstFailedAt!: string;
  @ApiProperty({ format: 'date-time' }) lastFailedAt!: string;
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true }) resolvedAt!: string | null;
  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'What resolved it, when a later success did (e.g. `sync-product job 42`).',
  })
  resolvedBy!: string | null;
  @ApiProperty({
    type: 'integer',
    description: 'How many times it happened while open (same subject, same cause).',
  })
  occurrences!: number;
  @ApiProperty({ type: [FailureOccurrenceDto], description: 'The latest occurrences, oldest first.' })
  history!: FailureOccurrenceDto[];
  @ApiProperty({ type: Object, description: "The job's data, as its replay will run it again." })
  payload!: Record<string, unknown>;
}

/** A page of the failures inbox. */
@ApiSchema({ name: 'FailurePage' })
export class FailurePageDto {
  @ApiProperty({ type: [FailureDto] }) items!: FailureDto[];
  @ApiProperty({ type: 'integer', description: 'Failures matching the filter, all pages.' }) total!: number;
  @ApiProperty({ type: 'integer' }) limit!: number;
  @ApiProperty({ type: 'integer' }) offset!: number;
}

/** Why: a failure a bulk call left as it was, and why. */
@ApiSchema({ name: 'FailureSkipped' })
export class FailureSkippedDto {
  @ApiProperty() id!: string;
  @ApiProperty() message!: string;
}

/** The answer to a replay of every open failure matching a filter. */
@ApiSchema({ name: 'BulkReplay' })
export class BulkReplayDto {
  @ApiProperty({ type: [String], description: 'Failures whose job was enqueued again (now `replayed`).' })
  replayed!: string[];
  @ApiProperty({ type: [FailureSkippedDto], description: 'Replays that could not be enqueued (still open).' })
  errors!: FailureSkippedDto[];
  @ApiProperty({ type: 'integer', description: 'Open failures still matching; replay again for more.' })
  remaining!: number;
}

/** The answer to `POST /admin/failures/dismiss`. */
@ApiSchema({ name: 'BulkDismiss' })
export class BulkDismissDto {
  @ApiProperty({ type: 'integer', description: 'How many failures this call dismissed.' })
  dismissed!: number;
  @ApiProperty({ type: [String] }) ids!: string[];
  @ApiProperty({
    type: [FailureSkippedDto],
    description: 'Named or matched failures not dismissed (not open any more, or unknown), with why.',
  })
  skipped!: FailureSkippedDto[];
}

/** Entity -> DTO; dates as ISO 8601 strings. */
export function failureDto(failure: Failure): FailureDto {
  return {
    id: failure.id,
    shop: failure.shop,
    jobKind: failure.jobKind,
    subjectKey: failure.subjectKey,
    state: failure.state,
    error: { code: failure.errorCode, message: failure.errorMessage, retryable: failure.retryable },
    attempts: failure.attempts,
    firstFailedAt: failure.firstFailedAt.toISOString(),
    lastFailedAt: failure.lastFailedAt.toISOString(),
    resolvedAt: failure.resolvedAt?.toISOString() ?? null,
    resolvedBy: failure.resolvedBy,
    occurrences: failure.occurrences,
    history: failure.history,
    payload: failure.payload,
  };
}
