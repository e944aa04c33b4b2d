import { Controller, Get, Res } from '@nestjs/common';
import type { Response } from 'express';
import { Readiness, type ReadinessReport } from './readiness.js';

/** `/health/live` (the process answers) and `/health/ready` (it can take webhooks). */
@Controller('health')
export class HealthController {
  constructor(private readonly readiness: Readiness) {}

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
