import { Processor, WorkerHost } from '@nestjs/bullmq';
import type { Job } from 'bullmq';
import { QueueName } from '../platform/queues/queue-names.js';
import { type SubscriptionCheckResult, SubscriptionRepair } from './subscription-repair.js';

/** The scheduled subscription check (one job per interval across replicas). */
@Processor(QueueName.SUBSCRIPTION_CHECK)
export class SubscriptionCheckJob extends WorkerHost {
  constructor(private readonly repair: SubscriptionRepair) {
    super();
  }

  process(_job: Job<Record<string, never>>): Promise<SubscriptionCheckResult[]> {
    return this.repair.checkAll();
  }
}
