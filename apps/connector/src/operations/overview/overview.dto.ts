import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { CAUSE_CODES, type CauseCode, type NextStep } from '../../platform/causes/causes.js';
import { MappingGapReasonCountDto } from '../admin/mapping-gaps.dto.js';
import { ShopRunTimesDto } from '../runs/runs.dto.js';
import type { ShopHealthState } from './shop-health.js';

const COUNTS = { type: 'object', additionalProperties: { type: 'integer' } } as const;

/** Why: a shop's products the mapping cannot fully map (so the catalog cannot fully enrich them), grouped by reason. */
@ApiSchema({ name: 'ShopMappingGaps' })
export class ShopMappingGapsDto {
  @ApiProperty({
    type: 'integer',
    description: 'Products whose last plan left a value out, or said enrichment will fail.',
  })
  products!: number;
  @ApiProperty({ type: 'integer', description: "Products the shop's syncs know (not deleted in Shopify)." })
  knownProducts!: number;
  @ApiProperty({
    type: 'number',
    description:
      '`products` over `knownProducts` (0 to 1); above CONNECTOR_MAPPING_GAP_DEGRADED_SHARE the shop is degraded.',
  })
  share!: number;
  @ApiProperty({
    type: [MappingGapReasonCountDto],
    description: 'The commonest reasons, most products first (10 at most).',
  })
  reasons!: MappingGapReasonCountDto[];
  @ApiProperty({
    type: 'integer',
    description: 'How many different reasons there are in all (the list page shows each).',
  })
  reasonCount!: number;
}

/** Why: what to do about a cause (the causes table's next step): words, a page, a command. */
@ApiSchema({ name: 'NextStep' })
export class NextStepDto implements NextStep {
  @ApiProperty() text!: string;
  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'A page of the web view that shows or does it.',
  })
  href!: string | null;
  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'A command line (docs/cli.md) that shows or does it.',
  })
  command!: string | null;
}

/** Why: the cause of a shop's state (the worst rule that applies), by code and in words. */
@ApiSchema({ name: 'ShopCause' })
export class ShopCauseDto {
  @ApiProperty({ enum: CAUSE_CODES }) code!: CauseCode;
  @ApiProperty({ description: 'The reason in words, with its figures.' }) text!: string;
}

/** Why: one rule that applies to a shop: its cause, how bad, the reason in words and the next step. */
@ApiSchema({ name: 'ShopCauseStep' })
export class ShopCauseStepDto extends ShopCauseDto {
  @ApiProperty({ enum: ['failing', 'degraded'] }) severity!: 'failing' | 'degraded';
  @ApiProperty({ type: NextStepDto }) next!: NextStepDto;
}

/** One shop on the overview: its state, why, and the facts the rules read. */
@ApiSchema({ name: 'ShopOverview' })
export class ShopOverviewDto {
  @ApiProperty() shop!: string;
  @ApiProperty({ enum: ['healthy', 'degraded', 'failing'] }) state!: ShopHealthState;
  @ApiProperty({ type: [String], description: 'Every rule that applies, in words (failing ones first).' })
  reasons!: string[];
  @ApiProperty({
    type: ShopCauseDto,
    nullable: true,
    description: 'The worst rule that applies (null when healthy).',
  })
  cause!: ShopCauseDto | null;
  @ApiProperty({
    type: NextStepDto,
    nullable: true,
    description: 'What to do about `cause` (null when healthy).',
  })
  next!: NextStepDto | null;
  @ApiProperty({ type: [ShopCauseStepDto], description: 'Every rule that applies, each with its next step.' })
  causes!: ShopCauseStepDto[];
  @ApiProperty() authState!: string;
  @ApiProperty({ enum: ['live', 'shadow'] }) mode!: string;
  @ApiProperty({ type: 'integer', description: 'Deliveries waiting for their sync.' }) backlog!: number;
  @ApiProperty({ type: 'number', nullable: true }) backlogAgeSeconds!: number | null;
  @ApiProperty({
    type: 'integer',
    description: "Deliveries held by an open failure of their product's sync: they wait for a replay.",
  })
  heldByFailures!: number;
  @ApiProperty() breaker!: string;
  @ApiProperty({
    type: 'number',
    nullable: true,
    description: "Seconds since the shop's last enrichment poll that finished its work (null: never polled).",
  })
  pollLagSeconds!: number | null;
  @ApiProperty({
    type: 'number',
    nullable: true,
    description: "The shop's Shopify cost bucket in use, 0 to 1; null before Shopify reported it.",
  })
  costBucketUse!: number | null;
  @ApiProperty({ ...COUNTS, description: 'Open failures by job kind.' }) openFailures!: Record<
    string,
    number
  >;
  @ApiProperty({
    type: ShopMappingGapsDto,
    description:
      'Its products the mapping cannot fully map, by reason (`GET /admin/mapping-gaps` lists them).',
  })
  mappingGaps!: ShopMappingGapsDto;
  @ApiProperty({
    type: ShopRunTimesDto,
    nullable: true,
    description: 'When the shop last synced, was polled and reconciled, and when the next runs are due.',
  })
  runs!: ShopRunTimesDto | null;
}

/** Why: a catalog account's calls in the last minute (this process) against its budget. */
@ApiSchema({ name: 'OverviewCatalogAccount' })
export class OverviewCatalogAccountDto {
  @ApiProperty() account!: string;
  @ApiProperty({ type: 'integer' }) callsLastMinute!: number;
  @ApiProperty({ type: 'integer' }) budgetPerMinute!: number;
}

/** Why: how many shops are in each state, every shop ("3 failing, 5 degraded, 192 healthy"). */
@ApiSchema({ name: 'OverviewStateCounts' })
export class OverviewStateCountsDto {
  @ApiProperty({ type: 'integer' }) failing!: number;
  @ApiProperty({ type: 'integer' }) degraded!: number;
  @ApiProperty({ type: 'integer' }) healthy!: number;
}

/** `GET /admin/overview`: each shop's state and the numbers that matter now. */
@ApiSchema({ name: 'Overview' })
export class OverviewDto {
  @ApiProperty({ format: 'date-time' }) at!: string;
  @ApiProperty({
    type: [ShopOverviewDto],
    description: 'One page of the shops: failing first, then degraded, then healthy; then by domain.',
  })
  shops!: ShopOverviewDto[];
  @ApiProperty({ type: 'integer', description: 'The shops that match `state` and `q` (every page).' })
  total!: number;
  @ApiProperty({ type: 'integer', description: 'The shops skipped before this page.' }) offset!: number;
  @ApiProperty({ type: 'integer', description: 'The most shops a page holds.' }) limit!: number;
  @ApiProperty({
    type: OverviewStateCountsDto,
    description: 'Every shop (before the filter) counted by state.',
  })
  stateCounts!: OverviewStateCountsDto;
  @ApiProperty({ type: 'integer', description: 'Deliveries waiting for their sync, every shop.' })
  syncBacklog!: number;
  @ApiProperty({
    type: 'number',
    nullable: true,
    description: 'Seconds the oldest of them has waited, every shop (null: none waits).',
  })
  syncBacklogAgeSeconds!: number | null;
  @ApiProperty({ type: 'integer', description: 'Deliveries received in the last minute, every shop.' })
  deliveriesLastMinute!: number;
  @ApiProperty({ type: [OverviewCatalogAccountDto] }) catalog!: OverviewCatalogAccountDto[];
  @ApiProperty({
    type: 'number',
    nullable: true,
    description:
      'The highest poll lag of the shops polled: seconds since their last poll that finished its work.',
  })
  enrichmentLagSeconds!: number | null;
  @ApiProperty({ ...COUNTS, description: 'Open failures by job kind, every shop.' })
  openFailuresByKind!: Record<string, number>;
  @ApiProperty({ type: 'integer', description: 'Write-backs sent to Shopify in the last hour, every shop.' })
  writeBacksLastHour!: number;
}
