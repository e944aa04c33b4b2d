import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Length, Max, Min } from 'class-validator';
import { DRIFT_KINDS, type DriftKind } from './model/drift-finding.js';
import type { DriftReport } from './store/drift-report.entity.js';

/** Why: `GET /admin/drift` takes a shop and a count, checked by the validation pipe. */
export class DriftReportListQuery {
  @ApiPropertyOptional({
    description: 'Reports of this shop (`<name>.myshopify.com`); without it, every shop.',
  })
  @IsOptional()
  @IsString()
  @Length(1, 500)
  shop?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 100, default: 20 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  limit?: number;
}

/** Why: one stored report in a list: when, whose, and how much it found (not its findings). */
@ApiSchema({ name: 'DriftReportSummary' })
export class DriftReportSummaryDto {
  @ApiProperty({ pattern: '^[1-9][0-9]*$' }) id!: string;
  @ApiProperty() shop!: string;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ type: 'integer', description: 'Findings in all.' }) findings!: number;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'integer' },
    description: `Findings per kind: ${DRIFT_KINDS.join(', ')}.`,
  })
  counts!: Record<DriftKind, number>;
  @ApiProperty({ type: 'integer', description: "The previous report's findings this one no longer finds." })
  resolved!: number;
}

/** Why: what `GET /admin/drift` answers, the newest report first. */
@ApiSchema({ name: 'DriftReportList' })
export class DriftReportListDto {
  @ApiProperty({ type: [DriftReportSummaryDto] }) items!: DriftReportSummaryDto[];
}

/** A stored report as a list shows it. */
export function driftReportSummary(report: DriftReport): DriftReportSummaryDto {
  const counts = report.counts;
  return {
    id: report.id,
    shop: report.shop,
    createdAt: report.createdAt.toISOString(),
    findings: Object.values(counts).reduce((sum, n) => sum + n, 0),
    counts,
    resolved: report.resolved.length,
  };
}
