import { Processor, WorkerHost } from '@nestjs/bullmq';
import type { Job } from 'bullmq';
import { JobGuard } from '../platform/failures/job-guard.service.js';
import { QueueName } from '../platform/queues/queue-names.js';
import { type SubscriptionCheckResult, SubscriptionRepair } from './subscription-repair.service.js';

/**
 * The subscription check: scheduled (one job per interval across replicas), or asked for by an
 * install's callback. A shop whose row is active but for which this process has no token yet
 * (installed through another replica, whose news reaches this one at its next look at the row)
 * makes the job wait that long and run again, rather than leave the shop without its webhooks
 * until the next scheduled check.
 */
@Processor(QueueName.SUBSCRIPTION_CHECK)
export class SubscriptionCheckJob extends WorkerHost {
  constructor(
    private readonly repair: SubscriptionRepair,
    private readonly guard: JobGuard,
  ) {
    super();
  }

  async process(job: Job<Record<string, never>>, token?: string): Promise<SubscriptionCheckResult[]> {
    const results = await this.repair.checkAll();
    const waits = results.flatMap((result) => (result.retryInMs === undefined ? [] : [result.retryInMs]));
    if (waits.length > 0) await this.guard.delay(job, token, Math.min(...waits));
    return results;
  }
}
