import { WorkerHost } from '@nestjs/bullmq';
import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import type { Job } from 'bullmq';
import { JobName } from '../../platform/queues/queue-names.js';
import { ConnectorMetrics } from './connector-metrics.service.js';

const RESULT_LABEL = /^[a-z][a-z_]{0,31}$/;

/**
 * Counts every job run this process's workers finish, by kind (the job name) and outcome: the
 * job's result when it names one (`synced`, `not_found`, ...), else `completed`; `retried` for an
 * error with attempts left; `failed` for a job that failed for good. A job put back as delayed
 * (a busy product lock, a paused catalog) is not a finished run.
 */
@Injectable()
export class JobMetrics implements OnApplicationBootstrap {
  constructor(
    private readonly discovery: DiscoveryService,
    private readonly metrics: ConnectorMetrics,
  ) {}

  onApplicationBootstrap(): void {
    for (const wrapper of this.discovery.getProviders()) {
      const host: unknown = wrapper.instance;
      if (!(host instanceof WorkerHost)) continue;
      host.worker.on('completed', (job: Job, result: unknown) => {
        const outcome = typeof result === 'string' && RESULT_LABEL.test(result) ? result : 'completed';
        this.metrics.job(job.name, outcome);
        if (job.name === JobName.SYNC_PRODUCT && job.finishedOn !== undefined) {
          this.metrics.syncDuration.observe({ phase: 'latency' }, (job.finishedOn - job.timestamp) / 1_000);
          if (job.processedOn !== undefined) {
            this.metrics.syncDuration.observe({ phase: 'run' }, (job.finishedOn - job.processedOn) / 1_000);
          }
        }
      });
      host.worker.on('failed', (job: Job | undefined, error: Error) => {
        if (job === undefined) return;
        const final = error.name === 'UnrecoverableError' || job.attemptsMade >= (job.opts.attempts ?? 1);
        this.metrics.job(job.name, final ? 'failed' : 'retried');
      });
    }
  }
}
