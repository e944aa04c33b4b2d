import { Controller, Get, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ConnectorMetrics } from './connector-metrics.service.js';

/**
 * `GET /metrics`, Prometheus text format. Open like the health routes (scrapers rarely send
 * credentials): it shows counts, states and shop domains, never a secret or a payload.
 */
@ApiTags('metrics')
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: ConnectorMetrics) {}

  @Get()
  @ApiOperation({ operationId: 'getMetrics', summary: 'Prometheus metrics (text format 0.0.4)' })
  @ApiProduces('text/plain')
  @ApiOkResponse({ description: 'Success', schema: { type: 'string' } })
  async scrape(@Res() res: Response): Promise<void> {
    const text = await this.metrics.render();
    res.status(200).setHeader('Content-Type', this.metrics.registry.contentType).end(text);
  }
}
