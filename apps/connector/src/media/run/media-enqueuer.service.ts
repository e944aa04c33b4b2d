import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { MediaSettings } from '../../platform/config/settings.js';
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
    private readonly settings: MediaSettings,
  ) {}

  async enqueue(payload: SyncMediaPayload): Promise<void> {
    await this.queue.add(JobName.SYNC_MEDIA, payload, syncMediaJobOptions(this.settings, payload));
  }
}
