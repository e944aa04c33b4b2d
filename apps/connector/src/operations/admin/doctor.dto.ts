import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsOptional, IsString, Length } from 'class-validator';

/** What `connector doctor` checks: the deployment once, then each shop. */
export const DOCTOR_CHECKS = [
  'public-url',
  'token-renewal',
  'scopes',
  'webhooks',
  'catalog-key',
  'mapping',
  'clock',
] as const;
export type DoctorCheckName = (typeof DOCTOR_CHECKS)[number];

/**
 * How a check came out: `pass`; `fail` (the deployment cannot work as it is: the fix says what to
 * do; the command line exits 1); `warn` (it works, but not as Shopify or the catalog need in
 * production, or products will not be fully enriched); `unknown` (it cannot be told from here).
 */
export const DOCTOR_STATUSES = ['pass', 'fail', 'warn', 'unknown'] as const;
export type DoctorStatus = (typeof DOCTOR_STATUSES)[number];

/** `GET /admin/doctor`'s query: one shop, or every shop the connector serves. */
export class DoctorQuery {
  @ApiPropertyOptional({
    description: 'Only this shop (`<name>.myshopify.com`); left out: every shop the connector serves.',
  })
  @IsOptional()
  @IsString()
  @Length(1, 500)
  shop?: string;
}

/** Why: one check's answer, with what to do when it does not pass. */
@ApiSchema({ name: 'DoctorCheck' })
export class DoctorCheckDto {
  @ApiProperty({ enum: DOCTOR_CHECKS }) check!: DoctorCheckName;
  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'The shop it is about; null: the deployment (the public URL).',
  })
  shop!: string | null;
  @ApiProperty({ enum: DOCTOR_STATUSES }) status!: DoctorStatus;
  @ApiProperty({ description: 'What was found, in words.' }) detail!: string;
  @ApiProperty({
    type: 'string',
    nullable: true,
    description: "What to do (null when it passes): the causes table's next step where one fits.",
  })
  fix!: string | null;
  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'A command line that shows or does the fix (`npm run connector -- ...`).',
  })
  command!: string | null;
  @ApiProperty({ type: 'string', nullable: true, description: 'A page of the web view for the fix.' })
  href!: string | null;
}

/** Why: `GET /admin/doctor`: every check of the deployment and of its shops, before the first webhook. */
@ApiSchema({ name: 'DoctorReport' })
export class DoctorReportDto {
  @ApiProperty({ format: 'date-time' }) checkedAt!: string;
  @ApiProperty({ type: [String], description: 'The shops checked.' }) shops!: string[];
  @ApiProperty({ type: [DoctorCheckDto] }) checks!: DoctorCheckDto[];
  @ApiProperty({ type: 'integer', description: 'Checks that failed (the command line exits 1 when any).' })
  failed!: number;
}
