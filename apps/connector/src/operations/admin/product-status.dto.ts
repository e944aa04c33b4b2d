import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import type { MediaStatus } from '../../media/store/media-status.repository.js';
import type { CatalogCallRecord } from '../../product-sync/apply/catalog-call-record.js';
import type { MappingGap, PlanNote } from '../../product-sync/plan/sync-plan.js';
import type { WriteBackEntry } from '../../write-back/write-back-status.service.js';
import { MappingGapProductDto } from './mapping-gaps.dto.js';

const nullableText = () => ApiProperty({ type: 'string', nullable: true });
const nullableTime = () => ApiProperty({ type: 'string', format: 'date-time', nullable: true });

/** Why: an attribute the last sync left out of a record (a Shopify value with no catalog equivalent). */
@ApiSchema({ name: 'MappingGap' })
export class MappingGapDto {
  @ApiProperty({ type: Object, description: 'The record it concerns.' }) record!: MappingGap['record'];
  @ApiProperty({ description: 'The mapping entry, e.g. `variant.options.Color`.' }) entry!: string;
  @ApiProperty() attribute!: string;
  @ApiProperty({ type: [String] }) values!: string[];
  @ApiProperty({ enum: ['unknown-value', 'invalid-value'] }) reason!: MappingGap['reason'];
  @ApiProperty() message!: string;
}

/** Why: what the last sync says about a record (e.g. `enrichment-will-fail`). */
@ApiSchema({ name: 'PlanNote' })
export class PlanNoteDto {
  @ApiProperty({ enum: ['enrichment-will-fail', 'unmapped-option', 'required-attribute-kept'] })
  code!: PlanNote['code'];
  @ApiProperty() message!: string;
  @ApiPropertyOptional() attribute?: string;
  @ApiPropertyOptional() option?: string;
}

/** One sku map row of the product, as operators see it. */
@ApiSchema({ name: 'MapRow' })
export class MapRowDto {
  @ApiProperty() kind!: string;
  @ApiProperty({
    type: 'string',
    nullable: true,
    description: "Null for the product's own (simple or parent) record.",
  })
  shopifyVariantId!: string | null;
  @ApiProperty() supplierSku!: string;
  @nullableText() parentSupplierSku!: string | null;
  @nullableText() skuId!: string | null;
  @ApiProperty() state!: string;
  @nullableTime() appliedAt!: string | null;
  @nullableTime() shopifyUpdatedAt!: string | null;
  @ApiProperty({ type: [MappingGapDto], description: 'Attributes the last sync left out of this record.' })
  gaps!: MappingGap[];
  @ApiProperty({ type: [PlanNoteDto], description: 'What the last sync says about this record.' })
  notes!: PlanNote[];
}

/** Why: one catalog call a sync made. */
@ApiSchema({ name: 'CatalogCall' })
export class CatalogCallDto implements CatalogCallRecord {
  @ApiProperty() method!: string;
  @ApiProperty({ description: 'The catalog path, with the id filled in.' }) path!: string;
  @ApiProperty({ type: 'integer', nullable: true, description: 'Null: no answer came.' }) status!:
    | number
    | null;
  @nullableText() code!: string | null;
  @ApiProperty() supplierSku!: string;
}

/** Why: an error as the product status shows it. */
@ApiSchema({ name: 'SyncError' })
export class SyncErrorDto {
  @ApiProperty() code!: string;
  @ApiProperty() message!: string;
}

/** Why: the last sync run of a product (its record). */
@ApiSchema({ name: 'LastSync' })
export class LastSyncDto {
  @ApiProperty({ format: 'date-time' }) startedAt!: string;
  @ApiProperty({ format: 'date-time' }) finishedAt!: string;
  @ApiProperty() reason!: string;
  @ApiProperty() outcome!: string;
  @nullableText() detail!: string | null;
  @ApiProperty({ type: [CatalogCallDto] }) calls!: CatalogCallRecord[];
  @ApiProperty({ type: SyncErrorDto, nullable: true }) error!: SyncErrorDto | null;
}

/** Why: the latest error of a product: its last failure, or its last run's error. */
@ApiSchema({ name: 'LastError' })
export class LastErrorDto {
  @ApiProperty({ format: 'date-time' }) at!: string;
  @ApiProperty() code!: string;
  @ApiProperty() message!: string;
  @ApiProperty({ enum: ['failure', 'sync'] }) source!: 'failure' | 'sync';
  @ApiPropertyOptional() failureId?: string;
  @ApiPropertyOptional() state?: string;
}

/** Why: the catalog's view of the product's own record, read now (one interactive call). */
@ApiSchema({ name: 'CatalogView' })
export class CatalogViewDto {
  @ApiProperty() skuId!: string;
  @nullableText() enrichmentStatus!: string | null;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'integer' }, nullable: true })
  attributeSummary!: Record<string, number> | null;
  @ApiPropertyOptional({ description: 'Why it could not be read.' }) error?: string;
}

/** Why: a gallery note of the last media run (e.g. `replaced-foreign-gallery`). */
@ApiSchema({ name: 'GalleryNote' })
export class GalleryNoteDto {
  @ApiProperty() code!: string;
  @ApiProperty() message!: string;
  @ApiPropertyOptional() supplierSku?: string;
  @ApiPropertyOptional() skuId?: string;
}

/** Why: an image left out of the catalog at the last media run, and why. */
@ApiSchema({ name: 'ImageFailure' })
export class ImageFailureDto {
  @ApiProperty() mediaId!: string;
  @ApiProperty({ enum: ['fetch', 'upload', 'not-ready'] }) stage!: string;
  @ApiProperty() code!: string;
  @ApiProperty() message!: string;
  @ApiProperty() retryable!: boolean;
}

/** Why: the last media run of a product. */
@ApiSchema({ name: 'MediaRun' })
export class MediaRunDto {
  @ApiProperty() shop!: string;
  @ApiProperty() productId!: string;
  @ApiProperty({
    type: [GalleryNoteDto],
    description: 'e.g. replaced-foreign-gallery, gallery-truncated, variant-inheritance-broken.',
  })
  notes!: MediaStatus['notes'];
  @ApiProperty({
    type: [ImageFailureDto],
    description: 'Images left out of the catalog at the last run, and why.',
  })
  imageFailures!: MediaStatus['imageFailures'];
  @ApiProperty({ type: 'integer' }) images!: number;
  @ApiProperty({ type: 'integer' }) uploads!: number;
  @ApiProperty({ type: 'integer' }) writes!: number;
  @ApiProperty({ format: 'date-time' }) lastRunAt!: string;
  @nullableTime() foreignGalleryReplacedAt!: string | null;
}

/** Why: the details of one write-back entry. */
@ApiSchema({ name: 'WriteBackDetails' })
export class WriteBackDetailsDto {
  @ApiProperty() attribute!: string;
  @ApiProperty() target!: string;
  @ApiProperty() owner!: string;
  @ApiProperty({ enum: ['push', 'retract', 'conflict', 'settle'] }) purpose!: string;
  @ApiPropertyOptional({ type: 'string', nullable: true }) valueHash?: string | null;
  @ApiPropertyOptional({ type: [String] }) errors?: string[];
}

/** Why: one entry of a product's write-back push history. */
@ApiSchema({ name: 'WriteBackEntry' })
export class WriteBackEntryDto {
  @ApiProperty({ format: 'date-time' }) at!: string;
  @ApiProperty({ description: 'The Shopify target, e.g. `seo.title`.' }) field!: string;
  @ApiProperty({ enum: ['ok', 'rejected', 'stale', 'unknown', 'throttled', 'conflict', 'unfit', 'landed'] })
  outcome!: string;
  @ApiProperty({ description: 'A merchant edit took the field over.' }) conflict!: boolean;
  @ApiProperty({ type: WriteBackDetailsDto }) details!: WriteBackEntry['details'];
}

/** The product's status (`GET /admin/products/{id}`). */
@ApiSchema({ name: 'ProductStatus' })
export class ProductStatusDto {
  @ApiProperty() shop!: string;
  @ApiProperty({ description: "Shopify's numeric product id." }) productId!: string;
  @ApiProperty({ type: [MapRowDto] }) mapRows!: MapRowDto[];
  @ApiProperty({
    type: LastSyncDto,
    nullable: true,
    description: 'The last sync run (its record), or null when none is recorded (or pruned).',
  })
  lastSync!: LastSyncDto | null;
  @ApiProperty({
    type: LastErrorDto,
    nullable: true,
    description: "The latest error: the last failure recorded for the product, or the last run's error.",
  })
  lastError!: LastErrorDto | null;
  @ApiProperty({
    type: CatalogViewDto,
    nullable: true,
    description:
      "The catalog's view of the product's own record, read now: its enrichment status and attribute summary; `error` when it could not be read; null without a skuId.",
  })
  catalog!: CatalogViewDto | null;
  @ApiProperty({
    type: MediaRunDto,
    nullable: true,
    description: 'The last media run of the product; null when none ran yet.',
  })
  media!: MediaStatus | null;
  @ApiProperty({
    type: [WriteBackEntryDto],
    nullable: true,
    description:
      'The write-back push history, latest first (at most 50); null only when no write-back stage runs.',
  })
  writeBacks!: WriteBackEntry[] | null;
  @ApiProperty({
    type: MappingGapProductDto,
    nullable: true,
    description:
      'Why the catalog cannot fully enrich the product, in words, one reason per cause, as its last plan recorded them; null: nothing to say.',
  })
  mappingGaps!: MappingGapProductDto | null;
}
