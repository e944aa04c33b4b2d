import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';
import type { DraftDecisionKind } from '../../mapping/draft/draft-decision.js';

export const DEFAULT_DRAFT_PRODUCTS = 250;
export const MAX_DRAFT_PRODUCTS = 2500;
export const DEFAULT_EVALUATED_PRODUCTS = 50;
export const MAX_EVALUATED_PRODUCTS = 250;
/** A mapping file sent to be evaluated: the largest body the route reads. */
export const MAX_MAPPING_BYTES = 512 * 1024;

const DECISION_KINDS: readonly DraftDecisionKind[] = [
  'category-not-leaf',
  'category-unmatched',
  'category-ambiguous',
  'no-product-type',
  'option-unmatched',
  'option-values',
  'required-unmapped',
];

/** `POST /admin/shops/{shop}/mapping/draft`'s body (optional): how many products to read. */
export class MappingDraftBody {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: MAX_DRAFT_PRODUCTS,
    description: `Products read, the first by id (default ${DEFAULT_DRAFT_PRODUCTS}).`,
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_DRAFT_PRODUCTS)
  products?: number;
}

/** Why: one thing a drafted mapping leaves to the operator, in words, with what it could be. */
@ApiSchema({ name: 'MappingDraftDecision' })
export class MappingDraftDecisionDto {
  @ApiProperty({ enum: DECISION_KINDS }) kind!: DraftDecisionKind;
  @ApiProperty({ example: 'product type "Accessories"' }) subject!: string;
  @ApiProperty({ description: 'The entry of the file it concerns.', example: 'product.productType.values' })
  entry!: string;
  @ApiProperty({ type: 'integer', description: 'Of the products read, how many it concerns.' })
  products!: number;
  @ApiProperty({ example: 'no leaf category of that name' }) message!: string;
  @ApiProperty({ type: [String], description: 'Leaf category ids, attribute keys or allowed values.' })
  candidates!: string[];
}

/** How much of what the shop showed the draft matched by name. */
@ApiSchema({ name: 'MappingDraftCount' })
export class MappingDraftCountDto {
  @ApiProperty({ type: 'integer' }) matched!: number;
  @ApiProperty({ type: 'integer' }) seen!: number;
}

/** The draft's matches: product types, option names, metafield definitions. */
@ApiSchema({ name: 'MappingDraftCounts' })
export class MappingDraftCountsDto {
  @ApiProperty({ type: MappingDraftCountDto }) productTypes!: MappingDraftCountDto;
  @ApiProperty({ type: MappingDraftCountDto }) options!: MappingDraftCountDto;
  @ApiProperty({ type: MappingDraftCountDto }) metafields!: MappingDraftCountDto;
}

/** A problem of a mapping file, naming its entry and line. */
@ApiSchema({ name: 'MappingFileProblem' })
export class MappingFileProblemDto {
  @ApiProperty({ example: 'variant.options.Size' }) path!: string;
  @ApiProperty() message!: string;
  @ApiPropertyOptional({ type: 'integer' }) line?: number;
}

/** Why: `POST /admin/shops/{shop}/mapping/draft`: a starting mapping file and what is left to decide. */
@ApiSchema({ name: 'MappingDraft' })
export class MappingDraftDto {
  @ApiProperty() shop!: string;
  @ApiProperty({ format: 'date-time' }) draftedAt!: string;
  @ApiProperty({ description: 'The mapping file: YAML, each decision left marked TODO at its entry.' })
  file!: string;
  @ApiProperty({ type: 'integer', description: 'Products read (the first by id).' }) products!: number;
  @ApiProperty({ description: 'The shop has more products than were read.' }) more!: boolean;
  @ApiProperty({ type: [MappingDraftDecisionDto] }) decisions!: MappingDraftDecisionDto[];
  @ApiProperty({ type: MappingDraftCountsDto }) counts!: MappingDraftCountsDto;
  @ApiProperty({ type: [String], description: 'The catalog attributes the file feeds.' })
  attributes!: string[];
  @ApiProperty({
    type: [MappingFileProblemDto],
    description: 'The file checked against the account as at boot: empty when it is accepted.',
  })
  problems!: MappingFileProblemDto[];
}

/** `POST /admin/shops/{shop}/mapping/evaluation`'s body: the mapping (else the shop's own) and how many products. */
export class MappingEvaluationBody {
  @ApiPropertyOptional({
    description: "A mapping file's text (YAML or JSON); left out: the shop's configured mapping.",
  })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(MAX_MAPPING_BYTES)
  mapping?: string;

  @ApiPropertyOptional({ description: "The file's name, for messages.", example: 'mapping.yaml' })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  source?: string;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: MAX_EVALUATED_PRODUCTS,
    description: `Products the mapping is evaluated on (default ${DEFAULT_EVALUATED_PRODUCTS}).`,
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_EVALUATED_PRODUCTS)
  products?: number;
}

/** Why: one reason products could not be (fully) enriched, with how many and a few of them. */
@ApiSchema({ name: 'MappingEvaluationReason' })
export class MappingEvaluationReasonDto {
  @ApiProperty({ description: 'In words, as the mapping gaps say it.' }) reason!: string;
  @ApiProperty({
    enum: [
      'unknown-value',
      'invalid-value',
      'enrichment-will-fail',
      'missing-required-attribute',
      'sync-failure',
    ],
    description:
      "The mapping gaps' codes, and `sync-failure`: the product would not sync at all (over 200 variants).",
  })
  code!: string;
  @ApiProperty({ type: 'string', nullable: true }) attribute!: string | null;
  @ApiProperty({ type: 'integer' }) products!: number;
  @ApiProperty({ type: [String], description: 'Shopify product ids, the first five.' }) examples!: string[];
}

/** One evaluated product the mapping cannot fully enrich. */
@ApiSchema({ name: 'MappingEvaluationProduct' })
export class MappingEvaluationProductDto {
  @ApiProperty() productId!: string;
  @ApiProperty() title!: string;
  @ApiProperty({ description: 'No record could be created (a required attribute, or no sync at all).' })
  blocked!: boolean;
  @ApiProperty({ type: [String] }) reasons!: string[];
}

/** Why: `POST /admin/shops/{shop}/mapping/evaluation`: a mapping tried on the shop's products, nothing sent. */
@ApiSchema({ name: 'MappingEvaluation' })
export class MappingEvaluationDto {
  @ApiProperty() shop!: string;
  @ApiProperty({ description: 'The mapping evaluated: the file named, or the configured one.' })
  source!: string;
  @ApiProperty({ type: 'integer', description: 'Products read from Shopify.' }) read!: number;
  @ApiProperty({ type: 'integer', description: 'Of those, not synced (status or scope).' })
  outOfScope!: number;
  @ApiProperty({ type: 'integer', description: 'Products planned through the mapping.' }) evaluated!: number;
  @ApiProperty({ description: 'The shop has more products than were read.' }) more!: boolean;
  @ApiProperty({ type: 'integer', description: 'Evaluated products that cannot be (fully) enriched.' })
  unenrichable!: number;
  @ApiProperty({ type: 'integer', description: 'Of those, products no record could be created for.' })
  blocked!: number;
  @ApiProperty({ type: [MappingEvaluationReasonDto], description: 'Most products first.' })
  reasons!: MappingEvaluationReasonDto[];
  @ApiProperty({ type: [MappingEvaluationProductDto], description: 'At most 100.' })
  products!: MappingEvaluationProductDto[];
}
