import { ApiProperty, ApiPropertyOptional, type ApiPropertyOptions, ApiSchema } from '@nestjs/swagger';
import { SHOP_MODES, type ShopMode } from '../../platform/config/shop-mode.js';

const ATTRIBUTE_VALUE: ApiPropertyOptions = {
  oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
  nullable: true,
};

/** One attribute a planned write changes. */
@ApiSchema({ name: 'PreviewFieldDiff' })
export class FieldDiffDto {
  @ApiProperty() field!: string;
  @ApiProperty({
    ...ATTRIBUTE_VALUE,
    description: 'Null: the record has no value for it (or does not exist yet).',
  })
  before!: string | string[] | null;
  @ApiProperty({ ...ATTRIBUTE_VALUE, description: 'Null: the value is cleared (or the record deleted).' })
  after!: string | string[] | null;
}

/** The image an upload row uploads: Shopify's media id, where its bytes come from. */
@ApiSchema({ name: 'PreviewImage' })
export class PreviewImageDto {
  @ApiProperty() shopifyMediaId!: string;
  @ApiProperty({ type: 'string', nullable: true }) sourceUrl!: string | null;
}

/**
 * One catalog record of a product (`catalog`), or the product's write-back targets in Shopify
 * (`shopify`: supplierSku empty, fields named by target, `@<variant id>` for a variant's), as the
 * planned writes leave it; or (`kind: 'upload'`) one image the media step would upload: its
 * `image`, the record whose planned gallery holds it (`supplierSku`; empty when none does) and
 * the image map entry it leaves (`finalState`: `shopifyMediaId`, `sourceUrl`, `fileId`).
 */
@ApiSchema({ name: 'PreviewRecord' })
export class PreviewRecordDto {
  @ApiProperty({
    enum: ['record', 'upload'],
    description:
      '`upload`: one image the media step would upload (`image`; `supplierSku`: the record whose planned gallery holds it, empty when none; `finalState`: its image map entry `shopifyMediaId`, `sourceUrl`, `fileId`).',
  })
  kind!: 'record' | 'upload';
  @ApiProperty({
    enum: ['catalog', 'shopify'],
    description:
      "`shopify`: the product's write-back targets (supplierSku empty; fields named by target, `@<variant id>` for a variant's).",
  })
  source!: 'catalog' | 'shopify';
  @ApiProperty() supplierSku!: string;
  @ApiPropertyOptional({ type: PreviewImageDto, description: '`upload` rows only: the image uploaded.' })
  image?: PreviewImageDto;
  @ApiProperty({
    type: [String],
    description: 'The planned calls for it, in order (`POST /v1/products`, ...).',
  })
  calls!: string[];
  @ApiProperty({ type: [FieldDiffDto] }) diffs!: FieldDiffDto[];
  @ApiProperty({
    type: Object,
    nullable: true,
    description: "The record's attributes once the planned writes are sent; null: deleted.",
  })
  finalState!: Record<string, unknown> | null;
}

/** One product's planned writes. */
@ApiSchema({ name: 'PreviewProduct' })
export class PreviewProductDto {
  @ApiProperty() productId!: string;
  @ApiProperty({ format: 'date-time' }) plannedAt!: string;
  @ApiProperty({ type: [PreviewRecordDto] }) records!: PreviewRecordDto[];
}

/** Write-back targets a live push would write, in all and by target. */
@ApiSchema({ name: 'PreviewWriteBacks' })
export class PreviewWriteBacksDto {
  @ApiProperty({ type: 'integer' }) total!: number;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'integer' },
    description: 'By target (`seo.title`, `$app:catalog.material`).',
  })
  byTarget!: Record<string, number>;
}

/** A shop preview's counts. */
@ApiSchema({ name: 'PreviewCounts' })
export class PreviewCountsDto {
  @ApiProperty({ type: 'integer' }) creates!: number;
  @ApiProperty({ type: 'integer' }) patches!: number;
  @ApiProperty({ type: 'integer' }) deletes!: number;
  @ApiProperty({ type: 'integer', description: 'Media uploads held back.' }) uploads!: number;
  @ApiProperty({ type: PreviewWriteBacksDto }) writeBacks!: PreviewWriteBacksDto;
  @ApiProperty({ type: 'integer', description: "Write-backs a merchant's edit holds back." })
  conflicts!: number;
  @ApiProperty({ type: 'integer', description: 'Values the mapping cannot map, over the planned records.' })
  mappingGaps!: number;
  @ApiProperty({ type: 'integer', description: 'Planned writes in all.' }) total!: number;
}

/** `GET /admin/shops/{shop}/preview`: what a shop in shadow would have sent (issue 31). */
@ApiSchema({ name: 'ShopPreview' })
export class ShopPreviewDto {
  @ApiProperty() shop!: string;
  @ApiProperty({ enum: SHOP_MODES }) mode!: ShopMode;
  @ApiProperty({ type: PreviewCountsDto }) counts!: PreviewCountsDto;
  @ApiProperty({ type: [PreviewProductDto] }) products!: PreviewProductDto[];
}
