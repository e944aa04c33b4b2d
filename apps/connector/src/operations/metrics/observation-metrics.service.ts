import { Injectable, type OnModuleInit } from '@nestjs/common';
import { Observations } from '../../platform/reporting/observations.service.js';
import { ConnectorMetrics } from './connector-metrics.service.js';

/**
 * Turns what the parts report to the base `Observations` sink into Prometheus series: catalog
 * calls and 429s (from the catalog clients), and poll lag, write-backs and conflicts (reported
 * by the enrichment stage when it runs).
 */
@Injectable()
export class ObservationMetrics implements OnModuleInit {
  constructor(
    private readonly observations: Observations,
    private readonly metrics: ConnectorMetrics,
  ) {}

  onModuleInit(): void {
    const m = this.metrics;
    this.observations.subscribe({
      catalogCall: ({ account, endpoint, status }) =>
        m.catalogCalls.inc({ account, endpoint, status: status === null ? 'none' : String(status) }),
      catalogRateLimited: ({ account, endpoint }) => m.catalogRateLimited.inc({ account, endpoint }),
      pollLag: ({ shop, seconds }) => m.pollLag.set({ shop }, seconds),
      writeBack: ({ shop, outcome }) => m.writeBacks.inc({ shop, outcome }),
      conflict: ({ shop, kind }) => m.conflicts.inc({ shop, kind }),
      failuresResolved: ({ jobKind, count }) => m.failureResolved(jobKind, 'resolved', count),
      queueStateLost: () => m.queueStateLost.inc(),
    });
  }
}
