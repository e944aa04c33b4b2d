import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { EnrichmentSettings } from '../../platform/config/settings.js';
import { enrichmentPushJobOptions } from '../../platform/queues/job-options.js';
import type { EnrichmentPushPayload } from '../../platform/queues/job-payloads.js';
import { JobName, QueueName } from '../../platform/queues/queue-names.js';

/** Enqueues one product's write-back (coalesced per product: `enrichmentPushJobOptions`). */
@Injectable()
export class PushEnqueuer {
  constructor(
    private readonly settings: EnrichmentSettings,
    @InjectQueue(QueueName.ENRICHMENT_PUSH) private readonly queue: Queue<EnrichmentPushPayload>,
  ) {}

  async enqueue(payload: EnrichmentPushPayload): Promise<void> {
    await this.queue.add(JobName.ENRICHMENT_PUSH, payload, enrichmentPushJobOptions(this.settings, payload));
  }
}
