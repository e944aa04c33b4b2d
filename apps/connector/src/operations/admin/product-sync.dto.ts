import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Length } from 'class-validator';
import { RunPlannedCallDto } from '../../resync/resync-run.dto.js';

/** One catalog call a dry run planned: the same shape a dry-run resync lists per product. */
export type PlannedCallDto = RunPlannedCallDto;

/** `POST /admin/products/{id}/sync`'s query: the shop (optional when it serves one), a dry run. */
export class ProductSyncQuery {
  @ApiPropertyOptional({ description: 'The shop (`<name>.myshopify.com`).' })
  @IsOptional()
  @IsString()
  @Length(1, 500)
  shop?: string;

  @ApiPropertyOptional({
    enum: ['true', 'false'],
    description: '`true`: answer with the plan, execute nothing.',
  })
  @IsOptional()
  @IsIn(['true', 'false'])
  dryRun?: 'true' | 'false';
}

/** Why: creates, patches and deletes among a dry run's planned calls. */
@ApiSchema({ name: 'ProductSyncCounts' })
export class ProductSyncCountsDto {
  @ApiProperty({ type: 'integer' }) creates!: number;
  @ApiProperty({ type: 'integer' }) patches!: number;
  @ApiProperty({ type: 'integer' }) deletes!: number;
  @ApiProperty({ type: 'integer' }) total!: number;
}

/** Why: `POST /admin/products/{id}/sync?dryRun=true` answers with the plan, nothing sent. */
@ApiSchema({ name: 'ProductSyncPlan' })
export class ProductSyncPlanDto {
  @ApiProperty() shop!: string;
  @ApiProperty() productId!: string;
  @ApiProperty({ enum: [true] }) dryRun!: true;
  @ApiProperty({ description: 'Whether Shopify still has the product (not: the plan deletes its records).' })
  found!: boolean;
  @ApiProperty() result!: string;
  @ApiProperty({ type: 'string', nullable: true }) detail!: string | null;
  @ApiProperty({ type: ProductSyncCountsDto }) counts!: ProductSyncCountsDto;
  @ApiProperty({ type: [RunPlannedCallDto] }) calls!: PlannedCallDto[];
  @ApiProperty({ type: [String] }) events!: string[];
}

/** Why: `POST /admin/products/{id}/sync` (no dry run) answers 202 once the sync is queued. */
@ApiSchema({ name: 'ProductSyncQueued' })
export class ProductSyncQueuedDto {
  @ApiProperty() shop!: string;
  @ApiProperty() productId!: string;
  @ApiProperty({ enum: [false] }) dryRun!: false;
  @ApiProperty({ enum: [true] }) queued!: true;
  @ApiProperty({ enum: ['operator'] }) reason!: 'operator';
  @ApiProperty({ description: 'The product status route, where the outcome shows' }) status!: string;
}
