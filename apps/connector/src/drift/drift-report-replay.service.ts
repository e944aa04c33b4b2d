import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { ReplayRegistry } from '../platform/failures/replay-registry.service.js';
import { DRIFT_REPORT_SUBJECT, type DriftReportPayload } from '../platform/queues/job-payloads.js';
import { JobName, QueueName } from '../platform/queues/queue-names.js';
import { enqueueDriftReport } from './drift-report.job.js';

/**
 * Why: registering the kind is what puts a shop's failed drift report job in the failures inbox
 * (the recorder only records kinds with a replay, a stalled one under the guard's subject, so the
 * shop's next report that succeeds resolves it); a replay enqueues the shop's report again.
 */
@Injectable()
export class DriftReportReplay implements OnModuleInit {
  constructor(
    private readonly registry: ReplayRegistry,
    @InjectQueue(QueueName.DRIFT_REPORT) private readonly queue: Queue<DriftReportPayload>,
  ) {}

  onModuleInit(): void {
    this.registry.register(
      JobName.DRIFT_REPORT,
      async (failure) => {
        const shop = failure.payload.shop;
        if (typeof shop !== 'string' || shop === '*') throw new Error('A drift report failure names no shop');
        await enqueueDriftReport(this.queue, shop);
      },
      () => DRIFT_REPORT_SUBJECT,
    );
  }
}
