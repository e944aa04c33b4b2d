import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { ArrayMinSize, IsArray, IsBoolean, IsIn, IsNotEmpty, IsOptional, IsString } from 'class-validator';
import type { DriftRepairOutcome } from '../../drift/drift-repairs.service.js';
import { DRIFT_KINDS, type DriftKind } from '../../drift/model/drift-finding.js';

const OUTCOMES: readonly DriftRepairOutcome['outcome'][] = [
  'enqueued',
  'deleted',
  'adopted',
  'retracted',
  'accepted',
  'already-repaired',
  'not-adoptable',
  'refused',
  'needs-confirmation',
  'preview',
  'failed',
  'not-supported',
];

/**
 * `POST /admin/drift/{id}/repairs`'s body: the findings (`ids`, or every one of a `kind`),
 * `preview` (run nothing) and `confirmLoss` (skuIds whose approved enrichment may be deleted).
 */
export class DriftRepairsBody {
  @ApiPropertyOptional({ type: [String], description: 'Findings of the report.' })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @IsString({ each: true })
  ids?: string[];

  @ApiPropertyOptional({ enum: DRIFT_KINDS, description: 'Every finding of this kind.' })
  @IsOptional()
  @IsIn(DRIFT_KINDS)
  kind?: DriftKind;

  @ApiPropertyOptional({
    description: 'true: run nothing; each outcome is preview, with effect saying what the repair would do.',
  })
  @IsOptional()
  @IsBoolean()
  preview?: boolean;

  @ApiPropertyOptional({
    type: [String],
    description:
      'skuIds of records holding approved enrichment that may be deleted (their enrichment is lost for good).',
  })
  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  @IsNotEmpty({ each: true })
  confirmLoss?: string[];
}

/** Why: what one repair did (or, in a preview, would do). */
@ApiSchema({ name: 'DriftRepairOutcome' })
export class DriftRepairOutcomeDto implements DriftRepairOutcome {
  @ApiProperty() findingId!: string;
  @ApiProperty({ enum: DRIFT_KINDS }) kind!: string;
  @ApiProperty() repair!: string;
  @ApiProperty({ enum: OUTCOMES }) outcome!: DriftRepairOutcome['outcome'];
  @ApiPropertyOptional({ description: 'Why the repair was not made, when it was not.' }) reason?: string;
  @ApiPropertyOptional({
    description: 'What the repair does (in a preview: would do) beyond its name, when there is more to say.',
  })
  effect?: string;
  @ApiPropertyOptional({
    type: [String],
    description: 'needs-confirmation: the approved attributes the delete would lose.',
  })
  loses?: string[];
  @ApiPropertyOptional({ description: 'needs-confirmation: the record confirmLoss must name.' })
  skuId?: string;
}

/** `POST /admin/drift/{id}/repairs`: each chosen finding's outcome. */
@ApiSchema({ name: 'DriftRepairs' })
export class DriftRepairsDto {
  @ApiProperty({ type: [DriftRepairOutcomeDto] }) repairs!: DriftRepairOutcome[];
}
