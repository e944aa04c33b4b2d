import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import type { DependencyReport } from '../reporting/dependency-health.service.js';
import type { ReadinessReport } from './readiness.service.js';

/** Why: `GET /health/live`'s answer: the process answers. */
@ApiSchema({ name: 'Liveness' })
export class LivenessDto {
  @ApiProperty({ enum: ['up'] }) status!: 'up';
}

/** Why: the two checks readiness rests on. */
@ApiSchema({ name: 'ReadinessChecks' })
export class ReadinessChecksDto {
  @ApiProperty({ enum: ['up', 'down'] }) database!: 'up' | 'down';
  @ApiProperty({ enum: ['up', 'down'] }) queue!: 'up' | 'down';
}

/** Why: `GET /health/ready`'s answer (503 with the same body when not ready). */
@ApiSchema({ name: 'Readiness' })
export class ReadinessDto implements ReadinessReport {
  @ApiProperty() ready!: boolean;
  @ApiProperty({ type: ReadinessChecksDto }) checks!: ReadinessChecksDto;
}

/** Why: one dependency as last checked. */
@ApiSchema({ name: 'DependencyState' })
export class DependencyStateDto implements DependencyReport {
  @ApiProperty({ enum: ['up', 'degraded', 'down', 'unknown'] }) status!: DependencyReport['status'];
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true }) checkedAt!: string | null;
  @ApiProperty({
    type: Object,
    description:
      'Catalog: reachable, keyAccepted (null until an answer), breaker, shops. Shopify: reachable, tokenAccepted, error.',
  })
  details!: Record<string, unknown>;
}

/** Everything `/health` reports: readiness, and each dependency as last checked. */
@ApiSchema({ name: 'HealthDetails' })
export class HealthDetailsDto extends ReadinessDto {
  @ApiProperty({
    type: 'object',
    additionalProperties: { $ref: '#/components/schemas/DependencyState' },
    description: '`catalog:<URL>#<key fingerprint>` and `shopify:<shop>` entries.',
  })
  dependencies!: Record<string, DependencyReport>;
}
