import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsOptional, IsString, Length } from 'class-validator';
import type { PauseState } from '../../clients/catalog/catalog-gate.service.js';
import type { OperatorPause } from '../../clients/catalog/sync-pauses.service.js';
import type { EnrichmentStatus } from '../../write-back/write-back-status.service.js';

/** Why: one operator's pause in force (`scope` `*`: every shop). */
@ApiSchema({ name: 'SyncPause' })
export class SyncPauseDto implements OperatorPause {
  @ApiProperty({ description: 'A shop domain, or `*` for every shop.' }) scope!: string;
  @ApiProperty() reason!: string;
  @ApiProperty({ format: 'date-time' }) since!: string;
}

/** `POST /admin/sync/pause`: the pauses in force, and the shops this call paused. */
@ApiSchema({ name: 'SyncPauses' })
export class SyncPausesDto {
  @ApiProperty({ type: [SyncPauseDto] }) pauses!: OperatorPause[];
  @ApiProperty({ type: [String], description: 'The shops this call paused (none: every shop).' })
  shops!: string[];
}

/** `POST /admin/sync/resume`: whether anything was resumed, which shops, the pauses left. */
@ApiSchema({ name: 'SyncResume' })
export class SyncResumeDto {
  @ApiProperty() resumed!: boolean;
  @ApiProperty({ type: [String], description: 'The shops this call resumed.' }) shops!: string[];
  @ApiProperty({ type: [SyncPauseDto] }) pauses!: OperatorPause[];
}

const SHOP_DESCRIPTION =
  'One shop (`<name>.myshopify.com`); without it (and without catalogKey), every shop.';
const CATALOG_KEY_DESCRIPTION =
  'Every shop on this catalog key: its account id `<baseUrl>#<fingerprint>` or the fingerprint (as `GET /admin/queues` lists it), never the key. Stored as one pause per shop.';

/** `POST /admin/sync/resume`'s query: one shop, every shop on a catalog key, or (neither) every shop. */
export class SyncScopeQuery {
  @ApiPropertyOptional({ description: SHOP_DESCRIPTION })
  @IsOptional()
  @IsString()
  @Length(1, 500)
  shop?: string;

  @ApiPropertyOptional({ description: CATALOG_KEY_DESCRIPTION })
  @IsOptional()
  @IsString()
  @Length(1, 500)
  catalogKey?: string;
}

/** `POST /admin/sync/pause`'s query: the scope, and the reason shown in the view. */
export class SyncPauseQuery extends SyncScopeQuery {
  @ApiPropertyOptional({ description: 'Shown in the queue view (500 characters at most).' })
  @IsOptional()
  @IsString()
  reason?: string;
}

/**
 * Why: one queue's jobs per state, across replicas (`waiting` counts the jobs waiting for their
 * turn with a priority too); `paused`: the BullMQ queue itself is paused.
 */
@ApiSchema({ name: 'QueueDepth' })
export class QueueDepthDto {
  @ApiProperty() name!: string;
  @ApiProperty({ type: 'integer' }) waiting!: number;
  @ApiProperty({ type: 'integer' }) active!: number;
  @ApiProperty({ type: 'integer' }) delayed!: number;
  @ApiProperty({ type: 'integer' }) failed!: number;
  @ApiProperty() paused!: boolean;
}

/** Why: a shop's sync, paused or not, and why (the catalog breaker, or an operator). */
@ApiSchema({ name: 'ShopPauseState' })
export class ShopPauseStateDto implements PauseState {
  @ApiProperty() shop!: string;
  @ApiProperty() paused!: boolean;
  @ApiProperty({ enum: ['breaker', 'operator', 'catalog-key'], nullable: true })
  by!: PauseState['by'];
  @ApiProperty({ type: 'string', nullable: true }) reason!: string | null;
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true }) since!: string | null;
}

/** Why: a catalog account (never its key): breaker, this process's calls in the last minute, the budget. */
@ApiSchema({ name: 'CatalogAccountUse' })
export class CatalogAccountUseDto {
  @ApiProperty({ description: '`<URL>#<key fingerprint>`, never the key.' }) account!: string;
  @ApiProperty({ type: [String] }) shops!: string[];
  @ApiProperty({ enum: ['closed', 'open', 'half-open'] }) breaker!: string;
  @ApiProperty({ type: 'integer', description: 'Calls this replica made in the last 60 s.' })
  callsLastMinute!: number;
  @ApiProperty({ type: 'integer' }) budgetPerMinute!: number;
}

/** Why: the enrichment poll's checkpoint, lag and watchlist size; null until the stage reports them. */
@ApiSchema({ name: 'EnrichmentProgress' })
export class EnrichmentProgressDto implements EnrichmentStatus {
  @ApiProperty({
    type: 'string',
    format: 'date-time',
    nullable: true,
    description: 'The newest enrichment the poll has seen.',
  })
  checkpoint!: string | null;
  @ApiProperty({
    type: 'number',
    nullable: true,
    description: 'Seconds since the last poll that finished its work (the shop polled least recently).',
  })
  lagSeconds!: number | null;
  @ApiProperty({
    type: 'string',
    format: 'date-time',
    nullable: true,
    description: 'When that poll finished.',
  })
  polledAt!: string | null;
  @ApiProperty({ type: 'integer', nullable: true }) watchlistSize!: number | null;
}

/** The queue and budget view (`GET /admin/queues`). */
@ApiSchema({ name: 'OperationsView' })
export class OperationsViewDto {
  @ApiProperty({ type: [QueueDepthDto] }) queues!: QueueDepthDto[];
  @ApiProperty({ type: [ShopPauseStateDto] }) shops!: Array<{ shop: string } & PauseState>;
  @ApiProperty({ type: [SyncPauseDto] }) pauses!: OperatorPause[];
  @ApiProperty({ type: [CatalogAccountUseDto] }) catalog!: CatalogAccountUseDto[];
  @ApiProperty({ type: EnrichmentProgressDto }) enrichment!: EnrichmentStatus;
}
