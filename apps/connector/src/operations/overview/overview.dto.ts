import { ApiProperty, ApiSchema } from '@nestjs/swagger';
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

/** One shop on the overview: its state, why, and the facts the rules read. */
@ApiSchema({ name: 'ShopOverview' })
export class ShopOverviewDto {
  @ApiProperty() shop!: string;
  @ApiProperty({ enum: ['healthy', 'degraded', 'failing'] }) state!: ShopHealthState;
  @ApiProperty({ type: [String], description: 'Every rule that applies, in words (failing ones first).' })
  reasons!: string[];
  @ApiProperty() authState!: string;
  @ApiProperty({ enum: ['live', 'shadow'] }) mode!: string;
  @ApiProperty({ type: 'integer', description: 'Deliveries waiting for their sync.' }) backlog!: number;
  @ApiProperty({ type: 'number', nullable: true }) backlogAgeSeconds!: number | null;
  @ApiProperty() breaker!: string;
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

/** `GET /admin/overview`: each shop's state and the numbers that matter now. */
@ApiSchema({ name: 'Overview' })
export class OverviewDto {
  @ApiProperty({ format: 'date-time' }) at!: string;
  @ApiProperty({ type: [ShopOverviewDto] }) shops!: ShopOverviewDto[];
  @ApiProperty({ type: 'integer', description: 'Deliveries received in the last minute, every shop.' })
  deliveriesLastMinute!: number;
  @ApiProperty({ type: [OverviewCatalogAccountDto] }) catalog!: OverviewCatalogAccountDto[];
  @ApiProperty({ type: 'number', nullable: true }) enrichmentLagSeconds!: number | null;
  @ApiProperty({ ...COUNTS, description: 'Open failures by job kind, every shop.' })
  openFailuresByKind!: Record<string, number>;
  @ApiProperty({ type: 'integer', description: 'Write-backs sent to Shopify in the last hour, every shop.' })
  writeBacksLastHour!: number;
}
