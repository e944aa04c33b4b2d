import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Length, Max, Min } from 'class-validator';
import type { ShopRunTimes } from './run-times.js';

/** The kinds of run the history lists: a resync (one product or a shop), a reconciliation, a drift report. */
export const RUN_KINDS = ['resync', 'reconcile', 'drift'] as const;
export type RunKind = (typeof RUN_KINDS)[number];

export const DEFAULT_RUN_PAGE = 50;
export const MAX_RUN_PAGE = 200;

const time = (description: string) =>
  ApiProperty({ type: 'string', format: 'date-time', nullable: true, description });
const integer = (description?: string) =>
  ApiProperty({ type: 'integer', ...(description ? { description } : {}) });

/** Why: the overview's per-shop "last sync 12 min ago, next poll in 48 s", from stored evidence. */
@ApiSchema({ name: 'ShopRunTimes' })
export class ShopRunTimesDto implements ShopRunTimes {
  @ApiProperty({ description: 'The enrichment poll polls the shop (its mapping writes something back).' })
  polled!: boolean;
  @time('The latest product sync that did not fail; null: none kept.') lastSync!: string | null;
  @time('The latest enrichment poll that polled the shop and committed its work.') lastPoll!: string | null;
  @time("The latest reconciliation (scheduled or an operator's, not a dry run).") lastReconcile!:
    | string
    | null;
  @time('The latest drift report.') lastDrift!: string | null;
  @time(
    "Due one poll interval (CONNECTOR_ENRICHMENT_POLL_INTERVAL_MS) after the shop's last poll (each shop is polled at its own turn of the interval), or, an interval under 20 s, after the scheduler last asked for a poll of every shop; null: the shop is not polled, or no poll is known. In the past: late.",
  )
  nextPoll!: string | null;
  @time('Due one CONNECTOR_RECONCILE_INTERVAL_MS after the last reconciliation; in the past: late.')
  nextReconcile!: string | null;
  @time('Due one CONNECTOR_DRIFT_INTERVAL_MS after the last report; null when off (0) or none yet.')
  nextDrift!: string | null;
}

/** Why: a resync's or reconciliation's products by what their sync did (a dry run: would do). */
@ApiSchema({ name: 'RunCounts' })
export class RunCountsDto {
  @integer('Products the run listed.') listed!: number;
  @integer('A catalog record created.') created!: number;
  @integer('A catalog record changed (or a variant removed).') updated!: number;
  @integer("The product's records deleted (gone from Shopify).") deleted!: number;
  @integer('Failed for good (each in the error report).') failed!: number;
  @integer('Nothing to send: unchanged, out of scope, or no mapping.') skipped!: number;
  @integer('Neither done nor failed: still running, or never reached by a cancelled run.') waiting!: number;
}

/** Why: a drift report's findings, against the shop's previous report. */
@ApiSchema({ name: 'DriftRunFindings' })
export class DriftRunFindingsDto {
  @integer('Findings in all (each in the error report).') total!: number;
  @integer('Findings the previous report did not have.') new!: number;
  @integer("The previous report's findings this one no longer finds.") resolved!: number;
  @integer('Findings an operator repaired since.') repaired!: number;
}

/** Why: one run in the history, newest first, with where to read more. */
@ApiSchema({ name: 'RunSummary' })
export class RunSummaryDto {
  @ApiProperty({ enum: RUN_KINDS }) kind!: RunKind;
  @ApiProperty({ pattern: '^[1-9][0-9]*$' }) id!: string;
  @ApiProperty() shop!: string;
  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'A one-product resync: the Shopify product id; else null.',
  })
  productId!: string | null;
  @ApiProperty({ description: 'A dry run: its counts are what it would do.' }) dryRun!: boolean;
  @ApiProperty({ enum: ['running', 'done', 'cancelled', 'failed'] }) state!: string;
  @ApiProperty({ type: 'string', nullable: true }) error!: string | null;
  @ApiProperty({ format: 'date-time' }) startedAt!: string;
  @time('When it ended; null while running.') finishedAt!: string | null;
  @ApiProperty({ type: RunCountsDto, nullable: true, description: 'Null for a drift report.' })
  counts!: RunCountsDto | null;
  @ApiProperty({
    type: DriftRunFindingsDto,
    nullable: true,
    description: "A drift report's findings; null for other runs.",
  })
  findings!: DriftRunFindingsDto | null;
  @ApiProperty({ description: "The run's page in the web view." }) page!: string;
  @ApiProperty({
    description: 'The run in the admin API (`GET /admin/resync/{id}`, `GET /admin/drift/{id}`).',
  })
  api!: string;
  @ApiProperty({ description: "The run's error report (`GET /admin/runs/{kind}/{id}/errors.csv`)." })
  errors!: string;
}

/** What `GET /admin/runs` answers: the newest runs first. */
@ApiSchema({ name: 'RunList' })
export class RunListDto {
  @ApiProperty({ type: [RunSummaryDto] }) items!: RunSummaryDto[];
}

/** Why: `GET /admin/runs` takes a shop, a kind and a count, checked by the validation pipe. */
export class RunListQuery {
  @ApiPropertyOptional({ description: 'Runs of this shop (`<name>.myshopify.com`); without it, every shop.' })
  @IsOptional()
  @IsString()
  @Length(1, 500)
  shop?: string;

  @ApiPropertyOptional({ enum: RUN_KINDS, description: 'Only runs of this kind; without it, every kind.' })
  @IsOptional()
  @IsIn(RUN_KINDS, { message: `kind must be one of ${RUN_KINDS.join(', ')}` })
  kind?: RunKind;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: MAX_RUN_PAGE,
    default: DEFAULT_RUN_PAGE,
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_RUN_PAGE)
  limit?: number;
}
