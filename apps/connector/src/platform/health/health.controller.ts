import { Controller, Get, Res } from '@nestjs/common';
import {
  ApiExtraModels,
  ApiOkResponse,
  ApiOperation,
  ApiServiceUnavailableResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { ApiConnectorErrors } from '../http/connector-error.dto.js';
import { QUEUE_DEPENDENCY } from '../queues/queue-state-watch.service.js';
import { DependencyHealth } from '../reporting/dependency-health.service.js';
import { DependencyStateDto, HealthDetailsDto, LivenessDto, ReadinessDto } from './health.dto.js';
import { Readiness } from './readiness.service.js';

/**
 * `/health/live` (the process answers), `/health/ready` (it can take webhooks: PostgreSQL and the
 * queue only) and `/health` (readiness plus the catalog's and Shopify's cached state; its status
 * follows readiness alone, so a dependency outage never fails it either). One measurement per
 * request: the queue's cached entry is corrected by readiness's probe of it when they disagree.
 */
@ApiTags('health')
@ApiExtraModels(DependencyStateDto)
@ApiConnectorErrors()
@Controller('health')
export class HealthController {
  constructor(
    private readonly readiness: Readiness,
    private readonly dependencies: DependencyHealth,
  ) {}

  @Get()
  @ApiOperation({
    operationId: 'getHealth',
    summary:
      "Readiness plus the catalog's and Shopify's state as last checked (cached; 503 only when not ready)",
  })
  @ApiOkResponse({ type: HealthDetailsDto })
  @ApiServiceUnavailableResponse({ type: HealthDetailsDto, description: 'Not ready (the same body)' })
  async details(@Res({ passthrough: true }) res: Response): Promise<HealthDetailsDto> {
    const { errors, ...report } = await this.readiness.measure();
    this.dependencies.confirm(QUEUE_DEPENDENCY, report.checks.queue, errors.queue);
    res.status(report.ready ? 200 : 503);
    return { ...report, dependencies: this.dependencies.snapshot() };
  }

  @Get('live')
  @ApiOperation({ operationId: 'getLiveness', summary: 'The process answers' })
  @ApiOkResponse({ type: LivenessDto })
  live(): LivenessDto {
    return { status: 'up' };
  }

  @Get('ready')
  @ApiOperation({
    operationId: 'getReadiness',
    summary: 'PostgreSQL and the queue backend answer (503 with the same body otherwise)',
  })
  @ApiOkResponse({ type: ReadinessDto })
  @ApiServiceUnavailableResponse({ type: ReadinessDto, description: 'Not ready (the same body)' })
  async ready(@Res({ passthrough: true }) res: Response): Promise<ReadinessDto> {
    const report = await this.readiness.check();
    res.status(report.ready ? 200 : 503);
    return report;
  }
}
