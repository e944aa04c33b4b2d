import { ApiProperty, ApiPropertyOptional, type ApiPropertyOptions, ApiSchema } from '@nestjs/swagger';
import {
  DRIFT_KINDS,
  DRIFT_REPAIRS,
  type DriftFinding,
  type DriftKind,
  type DriftRepair,
} from './model/drift-finding.js';
import type { DriftFindingRow } from './store/drift-finding-row.entity.js';
import type { DriftReport } from './store/drift-report.entity.js';

const nullableText = (description?: string) =>
  ApiProperty({ type: 'string', nullable: true, ...(description ? { description } : {}) });
const VALUE: ApiPropertyOptions = {
  oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
  nullable: true,
};

/** Why: one finding of a report as the admin API shows it, with its status and repair. */
@ApiSchema({ name: 'DriftFinding' })
export class DriftFindingDto implements DriftFinding {
  @ApiProperty() id!: string;
  @ApiProperty({ enum: DRIFT_KINDS }) kind!: DriftKind;
  @ApiProperty({ description: 'Kind plus what it is about: equal keys are the same finding.' }) key!: string;
  @ApiProperty({ enum: ['new', 'still-open'] }) status!: string;
  @nullableText("Shopify's numeric product id.") productId!: string | null;
  @nullableText() skuId!: string | null;
  @nullableText() supplierSku!: string | null;
  @nullableText() field!: string | null;
  @ApiProperty({ ...VALUE, description: 'What the connector expected (wire values).' })
  expected!: string | string[] | null;
  @ApiProperty({ ...VALUE, description: 'What it found.' }) found!: string | string[] | null;
  @ApiProperty({ enum: DRIFT_REPAIRS }) repair!: DriftRepair;
  @ApiPropertyOptional({
    description: "An orphan's or duplicate's parent record, when it is a variant record.",
  })
  parentSkuId?: string;
  @ApiPropertyOptional({ description: "A written-back value's Shopify owner (product or variant gid)." })
  ownerId?: string;
  @ApiPropertyOptional({
    description: "A written-back value's target (seo.title, tags, metafield:<namespace>.<key>).",
  })
  target?: string;
  @nullableText() repairedAt!: string | null;
  @nullableText() repairOutcome!: string | null;
}

/** Why: what the admin API answers for a report: its counts, its comparison, its findings. */
@ApiSchema({ name: 'DriftReport' })
export class DriftReportDto {
  @ApiProperty({ pattern: '^[1-9][0-9]*$' }) id!: string;
  @ApiProperty() shop!: string;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ type: 'integer' }) catalogSearches!: number;
  @ApiProperty({ type: 'integer' }) catalogRecords!: number;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'integer' },
    description: `Findings per kind: ${DRIFT_KINDS.join(', ')}.`,
  })
  counts!: Record<DriftKind, number>;
  @nullableText() previousId!: string | null;
  @ApiProperty({ type: 'integer' }) new!: number;
  @ApiProperty({ type: 'integer' }) stillOpen!: number;
  @ApiProperty({
    type: [String],
    description: "Keys of the previous report's findings this one no longer finds.",
  })
  resolved!: string[];
  @ApiProperty({ type: [DriftFindingDto] }) findings!: DriftFindingDto[];
}

/** A stored report and its findings as the admin API shows them. */
export function driftReportDto(report: DriftReport, rows: readonly DriftFindingRow[]): DriftReportDto {
  return {
    id: report.id,
    shop: report.shop,
    createdAt: report.createdAt.toISOString(),
    catalogSearches: report.catalogSearches,
    catalogRecords: report.catalogRecords,
    counts: report.counts,
    previousId: report.previousId,
    new: rows.filter((r) => r.status === 'new').length,
    stillOpen: rows.filter((r) => r.status === 'still-open').length,
    resolved: report.resolved,
    findings: rows.map((r) => ({
      ...r.finding,
      id: r.id,
      status: r.status,
      repairedAt: r.repairedAt?.toISOString() ?? null,
      repairOutcome: r.repairOutcome,
    })),
  };
}
