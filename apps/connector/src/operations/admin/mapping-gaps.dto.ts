import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Length, Max, Min } from 'class-validator';
import type { GapReason } from '../../product-sync/gaps/gap-reasons.js';
import type { MappingGapRow } from '../../product-sync/gaps/mapping-gap.entity.js';

export const DEFAULT_GAP_PAGE = 50;
export const MAX_GAP_PAGE = 500;

/** `GET /admin/mapping-gaps`: the shop (optional with one shop), a reason to filter by, the page. */
export class MappingGapsQuery {
  @ApiPropertyOptional({
    description: 'The shop (`<name>.myshopify.com`); optional when the connector serves one.',
  })
  @IsOptional()
  @IsString()
  @Length(1, 500)
  shop?: string;

  @ApiPropertyOptional({
    description: 'Only the products with this reason (its words, as listed in `reasons`).',
  })
  @IsOptional()
  @IsString()
  @Length(1, 2000)
  reason?: string;

  @ApiPropertyOptional({
    description: `At most this many (default ${DEFAULT_GAP_PAGE}).`,
    type: 'integer',
    minimum: 1,
    maximum: MAX_GAP_PAGE,
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_GAP_PAGE)
  limit?: number;

  @ApiPropertyOptional({ description: 'Skip this many.', type: 'integer', minimum: 0 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  offset?: number;
}

/** Why: one reason of a shop's mapping gaps, in words, and how many of its products it applies to. */
@ApiSchema({ name: 'MappingGapReasonCount' })
export class MappingGapReasonCountDto {
  @ApiProperty({
    example:
      'category "Accessories" is not a category of the account: map it to a leaf category in product.productType.values, or add it to the catalog\'s taxonomy',
  })
  reason!: string;
  @ApiProperty({ type: 'integer' }) products!: number;
}

/** Why: one reason a product cannot be fully enriched, in words (`productGapReasons`). */
@ApiSchema({ name: 'MappingGapReason' })
export class MappingGapReasonDto implements GapReason {
  @ApiProperty({ description: 'In words; the same for every product with this cause.' }) reason!: string;
  @ApiProperty({
    enum: ['unknown-value', 'invalid-value', 'enrichment-will-fail', 'missing-required-attribute'],
    description:
      'A Shopify value with no catalog equivalent, one that breaks a catalog rule, a note that enrichment will fail, or a create refused for a required attribute.',
  })
  code!: GapReason['code'];
  @ApiProperty({ type: 'string', nullable: true, description: 'The catalog attribute it concerns.' })
  attribute!: string | null;
  @ApiProperty({ type: 'integer', description: 'Its catalog records it touches (0: the catalog has none).' })
  records!: number;
}

/** Why: one product with mapping gaps, as its last plan recorded them. */
@ApiSchema({ name: 'MappingGapProduct' })
export class MappingGapProductDto {
  @ApiProperty({ description: "Shopify's numeric product id." }) productId!: string;
  @ApiProperty({ type: 'string', nullable: true, description: 'Its title in Shopify when it was planned.' })
  title!: string | null;
  @ApiProperty({ type: [MappingGapReasonDto] }) reasons!: MappingGapReasonDto[];
  @ApiProperty({ description: 'The catalog holds no record of it: its create was refused.' })
  blocked!: boolean;
  @ApiProperty({ format: 'date-time', description: 'When its last plan recorded them.' }) recordedAt!: string;
}

/** `GET /admin/mapping-gaps`: a shop's products the mapping cannot fully map, by reason, and a page of them. */
@ApiSchema({ name: 'MappingGapPage' })
export class MappingGapPageDto {
  @ApiProperty() shop!: string;
  @ApiProperty({ type: 'integer', description: 'Its products with mapping gaps, every reason.' })
  products!: number;
  @ApiProperty({ type: [MappingGapReasonCountDto], description: 'Every reason, most products first.' })
  reasons!: MappingGapReasonCountDto[];
  @ApiProperty({ type: 'string', nullable: true, description: 'The reason the page is filtered by.' })
  reason!: string | null;
  @ApiProperty({ type: [MappingGapProductDto], description: 'Latest recorded first.' })
  items!: MappingGapProductDto[];
  @ApiProperty({ type: 'integer', description: 'Products matching the filter, all pages.' }) total!: number;
  @ApiProperty({ type: 'integer' }) limit!: number;
  @ApiProperty({ type: 'integer' }) offset!: number;
}

/** A stored row as the API shows it. */
export function mappingGapProductDto(row: MappingGapRow): MappingGapProductDto {
  return {
    productId: row.productId,
    title: row.title,
    reasons: row.reasons,
    blocked: row.blocked,
    recordedAt: row.recordedAt.toISOString(),
  };
}
