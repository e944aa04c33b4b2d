import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsOptional, IsString, Length, Matches } from 'class-validator';

/** `'true'`/`'false'` (a query) read as booleans; anything else is left for `@IsBoolean` to refuse. */
const booleanText = Transform(({ value }) => (value === 'true' ? true : value === 'false' ? false : value));

/**
 * Why: the run routes (`POST /admin/resync`, `POST /admin/reconcile`, `POST
 * /admin/products/{id}/write-back`) take
 * `shop` and `dryRun` from the query string or a JSON body alike (the query wins); declared once
 * for both, checked by the validation pipe (a name not declared is a 400 naming it).
 */
export class ShopRunParameters {
  @ApiPropertyOptional({ description: '`<name>.myshopify.com` (required, in the query or the body)' })
  @IsOptional()
  @IsString()
  @Length(1, 500)
  shop?: string;

  @ApiPropertyOptional({
    type: 'boolean',
    default: false,
    description:
      '`true`: a dry run (issue 31): read and plan as a live run would, send nothing; its plan shows in the answer or the run.',
  })
  @IsOptional()
  @booleanText
  @IsBoolean()
  dryRun?: boolean;
}

/** `POST /admin/resync`: a shop, optionally one product of it, optionally a dry run. */
export class ResyncRunParameters extends ShopRunParameters {
  @ApiPropertyOptional({
    description: 'Only this Shopify product id (decimal digits).',
    pattern: '^[1-9][0-9]*$',
  })
  @IsOptional()
  @IsString()
  @Matches(/^[1-9]\d{0,19}$/, { message: 'product must be a Shopify product id (decimal digits).' })
  product?: string;
}

/** The parameters given, the query's winning over the body's (each already checked). */
export function runParametersOf<T extends ShopRunParameters>(query: T, body: T): T {
  const given = Object.entries(query).filter(([, value]) => value !== undefined);
  return { ...body, ...Object.fromEntries(given) } as T;
}

/** `GET /admin/resync/{id}`: a dry run's plan from after this product id (the previous page's `nextPlanAfter`). */
export class ResyncShowQuery {
  @ApiPropertyOptional({
    description: "A dry run's plan from after this product id.",
    pattern: '^[1-9][0-9]*$',
  })
  @IsOptional()
  @IsString()
  @Matches(/^[1-9]\d{0,19}$/, { message: 'planAfter must be a Shopify product id (decimal digits).' })
  planAfter?: string;
}

const MATCHES = ['sku:supplierSku', 'sku:gtin', 'barcode:supplierSku', 'barcode:gtin'] as const;

/** `POST /admin/link`: the shop, how products match records, report only, resync after. */
export class LinkQuery {
  @ApiProperty({ description: 'The shop (`<name>.myshopify.com`).' })
  @IsString()
  @Length(1, 500)
  shop!: string;

  @ApiPropertyOptional({
    enum: MATCHES,
    description: 'Shopify field : catalog field (default CONNECTOR_LINK_MATCH).',
  })
  @IsOptional()
  @IsIn(MATCHES)
  match?: (typeof MATCHES)[number];

  @ApiPropertyOptional({ type: 'boolean', default: false, description: 'Report only.' })
  @IsOptional()
  @booleanText
  @IsBoolean()
  dryRun?: boolean;

  @ApiPropertyOptional({
    type: 'boolean',
    default: true,
    description: 'Start a whole-shop resync after linking.',
  })
  @IsOptional()
  @booleanText
  @IsBoolean()
  resync?: boolean;
}
