import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Length,
  Matches,
  Max,
  Min,
} from 'class-validator';
import type { FailureState } from '../../platform/failures/failure.entity.js';
import type { FailureFilter } from '../../platform/failures/failures.service.js';
import { ConnectorError } from '../../platform/http/connector.error.js';
import { ConnectorErrorCode } from '../../platform/http/connector-error-code.js';

export const FAILURE_STATES: readonly FailureState[] = ['open', 'replayed', 'dismissed', 'resolved'];
const FAILURE_ID = /^[1-9]\d{0,18}$/;
const BIGINT_MAX = 2n ** 63n - 1n;
export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 500;

/**
 * The failures inbox's filter (`shop`, `jobKind`, `state`, `subject`) and `limit`, declared once:
 * the validation pipe answers a bad or unknown one with 400 `bad_request` naming it, and the
 * OpenAPI document lists them.
 */
export class FailureFilterQuery {
  @ApiPropertyOptional({ description: 'Only this shop (`<name>.myshopify.com`).' })
  @IsOptional()
  @IsString()
  @Length(1, 500)
  shop?: string;

  @ApiPropertyOptional({ description: 'Only this job kind, e.g. `sync-product`.' })
  @IsOptional()
  @IsString()
  @Length(1, 500)
  jobKind?: string;

  @ApiPropertyOptional({ description: 'Only failures in this state.', enum: FAILURE_STATES })
  @IsOptional()
  @IsIn(FAILURE_STATES, { message: `state must be one of ${FAILURE_STATES.join(', ')}` })
  state?: FailureState;

  @ApiPropertyOptional({ description: 'Only this subject (a product sync: the Shopify product id).' })
  @IsOptional()
  @IsString()
  @Length(1, 500)
  subject?: string;

  @ApiPropertyOptional({
    description: `At most this many (default ${DEFAULT_PAGE_SIZE}).`,
    type: 'integer',
    minimum: 1,
    maximum: MAX_PAGE_SIZE,
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE_SIZE)
  limit?: number;
}

/** `GET /admin/failures`: the filter, `limit` and `offset`. */
export class FailureListQuery extends FailureFilterQuery {
  @ApiPropertyOptional({ description: 'Skip this many.', type: 'integer', minimum: 0 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  offset?: number;
}

/** `POST /admin/failures/replay`: the filter over open failures (no offset). */
export class FailureReplayQuery extends FailureFilterQuery {
  @ApiPropertyOptional({ description: 'Only open failures can be replayed.', enum: ['open'] })
  @IsOptional()
  @IsIn(['open'], { message: 'Only open failures can be replayed or dismissed.' })
  override state?: FailureState;
}

/**
 * `POST /admin/failures/dismiss`'s JSON body: `ids` (1..500 failure ids), or a filter like the
 * inbox's (`shop`, `jobKind`, `subject`, `state` only `open`, `limit`), never both.
 */
export class DismissFailuresBody extends FailureReplayQuery {
  @ApiPropertyOptional({
    type: [String],
    description: 'The failures to dismiss (then no filter).',
    minItems: 1,
    maxItems: MAX_PAGE_SIZE,
    pattern: '^[1-9][0-9]*$',
  })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_PAGE_SIZE)
  @IsString({ each: true })
  @Matches(FAILURE_ID, {
    each: true,
    message: 'Each id must be a failure id (a positive integer, as a string).',
  })
  ids?: string[];
}

/** The filter a validated query or body names. */
export function failureFilterOf(query: FailureFilterQuery): FailureFilter {
  return {
    shop: query.shop?.toLowerCase(),
    jobKind: query.jobKind,
    state: query.state,
    subjectKey: query.subject,
  };
}

/** `limit` (default 50) and `offset` (default 0). */
export function pageOf(query: FailureListQuery): { limit: number; offset: number } {
  return { limit: query.limit ?? DEFAULT_PAGE_SIZE, offset: query.offset ?? 0 };
}

/** The failures a bulk dismiss names: explicit ids, or a filter over the open ones and a limit. */
export type DismissTargets = { ids: string[] } | { filter: FailureFilter; limit: number };

/** The body's targets: ids alone, or a filter naming at least one of shop, jobKind, subject. */
export function dismissTargetsOf(body: DismissFailuresBody): DismissTargets {
  const { ids, ...rest } = body;
  const filterGiven = Object.entries(rest).filter(([, value]) => value !== undefined);
  if (ids !== undefined) {
    if (filterGiven.length > 0)
      throw invalid(filterGiven[0]?.[0] as string, 'Give either ids or a filter, not both.');
    if (ids.some((id) => BigInt(id) > BIGINT_MAX)) {
      throw invalid('ids', 'Each id must be a failure id (a positive integer, as a string).');
    }
    return { ids: [...new Set(ids)] };
  }
  const filter = failureFilterOf(body);
  if (filter.shop === undefined && filter.jobKind === undefined && filter.subjectKey === undefined) {
    throw invalid('ids', 'Name the failures: ids, or at least one of shop, jobKind, subject.');
  }
  return { filter: { ...filter, state: 'open' }, limit: pageOf(body).limit };
}

/** A failure id from the path; anything but a positive integer is a 404, never a database error. */
export function failureIdOf(id: string): string {
  if (!FAILURE_ID.test(id) || BigInt(id) > BIGINT_MAX) throw notFound(id);
  return id;
}

export function notFound(id: string): ConnectorError {
  return new ConnectorError(ConnectorErrorCode.NOT_FOUND, `No failure ${id}.`);
}

function invalid(parameter: string, message: string): ConnectorError {
  return new ConnectorError(ConnectorErrorCode.BAD_REQUEST, message, { parameter });
}
