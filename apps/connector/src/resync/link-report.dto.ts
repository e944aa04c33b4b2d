import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import type { RecordKind } from '../product-sync/plan/index.js';
import type { LinkMatch } from './link-matcher.js';

/** Lists in a report stop after this many entries (the counts are always whole). */
export const REPORT_LIST_LIMIT = 200;

const integer = () => ApiProperty({ type: 'integer' });
const ids = (description: string) => ApiProperty({ type: [String], description });

/** Why: the fields compared, Shopify's and the catalog's. */
@ApiSchema({ name: 'LinkMatch' })
export class LinkMatchDto {
  @ApiProperty({ enum: ['sku', 'barcode'] }) shopify!: LinkMatch['shopify'];
  @ApiProperty({ enum: ['supplierSku', 'gtin'] }) catalog!: LinkMatch['catalog'];
}

/** Why: catalog records scanned (the account's, minus those the map holds) and the searches it took. */
@ApiSchema({ name: 'LinkCatalogScan' })
export class LinkCatalogScanDto {
  @integer() records!: number;
  @integer() searches!: number;
}

/** Why: how many products each outcome took (whole, whatever the lists show). */
@ApiSchema({ name: 'LinkCounts' })
export class LinkCountsDto {
  @integer() linked!: number;
  @integer() created!: number;
  @integer() updated!: number;
  @integer() deleted!: number;
  @integer() conflicts!: number;
}

/** Why: one sku map row a link enters. */
@ApiSchema({ name: 'LinkedRecord' })
export class LinkedRecordDto {
  @ApiProperty({ enum: ['simple', 'parent', 'variant'] }) kind!: RecordKind;
  @ApiProperty({ type: 'string', nullable: true }) shopifyVariantId!: string | null;
  @ApiProperty() skuId!: string;
  @ApiProperty() supplierSku!: string;
}

/** Why: a product linked to existing records (its next sync updates only what differs). */
@ApiSchema({ name: 'LinkedProduct' })
export class LinkedProductDto {
  @ApiProperty() productId!: string;
  @ApiProperty({ type: [LinkedRecordDto] }) records!: LinkedRecordDto[];
}

/** Why: a product linking left alone, and why. */
@ApiSchema({ name: 'LinkConflict' })
export class LinkConflictDto {
  @ApiProperty() productId!: string;
  @ApiProperty() reason!: string;
}

/** What linking did, or (dry run) would do, for one shop. Never an entity. */
@ApiSchema({ name: 'LinkReport' })
export class LinkReportDto {
  @ApiProperty() shop!: string;
  @ApiProperty() dryRun!: boolean;
  @ApiProperty({ type: LinkMatchDto }) match!: LinkMatch;
  @ApiProperty({ type: LinkCatalogScanDto }) catalog!: LinkCatalogScanDto;
  @integer() shopifyProducts!: number;
  @ApiProperty({
    enum: ['bulk', 'pages'],
    description: 'One bulk query (more than CONNECTOR_BULK_THRESHOLD products), or pages.',
  })
  shopifyRead!: 'bulk' | 'pages';
  @ApiProperty({ type: LinkCountsDto }) counts!: LinkCountsDto;
  @ApiProperty({ type: [LinkedProductDto], description: 'Products linked to existing records.' })
  linked!: LinkedProductDto[];
  @ids('Products no record matched (the sync creates them); at most 200 listed.') created!: string[];
  @ids('Products the map already holds: their sync updates them.') updated!: string[];
  @ids('Products the map holds that Shopify no longer has: their sync deletes their records.')
  deleted!: string[];
  @ApiProperty({ type: [LinkConflictDto] }) conflicts!: LinkConflictDto[];
  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'The whole-shop resync started after linking (not on a dry run, nor when asked not to).',
  })
  resyncRunId!: string | null;
}
