import { Controller, Get, Res } from '@nestjs/common';
import type { Response } from 'express';
import { DependencyHealth, type DependencyReport } from '../reporting/dependency-health.js';
import { Readiness, type ReadinessReport } from './readiness.js';

/** Everything `/health` reports: readiness, and each dependency as last checked. */
export interface HealthDetails extends ReadinessReport {
  dependencies: Record<string, DependencyReport>;
}

/**
 * `/health/live` (the process answers), `/health/ready` (it can take webhooks: PostgreSQL and the
 * queue only) and `/health` (readiness plus the catalog's and Shopify's cached state; its status
 * follows readiness alone, so a dependency outage never fails it either).
 */
@Controller('health')
export class HealthController {
  constructor(
    private readonly readiness: Readiness,
    private readonly dependencies: DependencyHealth,
  ) {}

  @Get()
  async details(@Res({ passthrough: true }) res: Response): Promise<HealthDetails> {
    const report = await this.readiness.check();
    res.status(report.ready ? 200 : 503);
    return { ...report, dependencies: this.dependencies.snapshot() };
  }

  @Get('live')
  live(): { status: 'up' } {
    return { status: 'up' };
  }

  @Get('ready')
  async ready(@Res({ passthrough: true }) res: Response): Promise<ReadinessReport> {
    const report = await this.readiness.check();
    res.status(report.ready ? 200 : 503);
    return report;
  }
}
