import { InjectQueue } from '@nestjs/bullmq';
import { Inject, Injectable } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { CONNECTOR_CONFIG } from '../../connector.tokens.js';
import type { ConnectorConfig } from '../../platform/config/connector.config.js';
import { syncMediaJobOptions } from '../../platform/queues/job-options.js';
import type { SyncMediaPayload } from '../../platform/queues/job-payloads.js';
import { JobName, QueueName } from '../../platform/queues/queue-names.js';

/**
 * Asks for a product's media run. Deduplicated per product (`syncMediaJobOptions`), so asking
 * after every sync and for every replay is safe: a waiting job absorbs the call, and one asked
 * while a run is active becomes exactly one more run.
 */
@Injectable()
export class MediaEnqueuer {
  constructor(
    @InjectQueue(QueueName.SYNC_MEDIA) private readonly queue: Queue<SyncMediaPayload>,
    @Inject(CONNECTOR_CONFIG) private readonly config: ConnectorConfig,
  ) {}

  async enqueue(payload: SyncMediaPayload): Promise<void> {
    await this.queue.add(JobName.SYNC_MEDIA, payload, syncMediaJobOptions(this.config.media, payload));
  }
}
