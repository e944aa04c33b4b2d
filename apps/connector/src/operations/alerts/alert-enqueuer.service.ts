import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { AlertSettings } from '../../platform/config/settings.js';
import { alertDeliveryJobOptions } from '../../platform/queues/job-options.js';
import type { AlertDeliveryPayload } from '../../platform/queues/job-payloads.js';
import { JobName, QueueName } from '../../platform/queues/queue-names.js';

/**
 * Why: the one class that adds delivery jobs to the alerts' queue (the scheduled look, a replay
 * from the failures inbox, the recovery of a queue backend that lost its jobs). A delivery's job
 * id is its row's, so adding a pending delivery again while its job waits or retries adds nothing.
 */
@Injectable()
export class AlertEnqueuer {
  constructor(
    @InjectQueue(QueueName.ALERT_DELIVERY) private readonly queue: Queue<AlertDeliveryPayload>,
    private readonly settings: AlertSettings,
  ) {}

  async deliver(deliveryId: string, failureId?: string): Promise<void> {
    const payload = { deliveryId, ...(failureId === undefined ? {} : { failureId }) };
    await this.queue.add(JobName.ALERT_DELIVERY, payload, alertDeliveryJobOptions(this.settings, payload));
  }
}
