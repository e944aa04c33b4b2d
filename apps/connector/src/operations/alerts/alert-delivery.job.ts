import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger, type OnApplicationBootstrap } from '@nestjs/common';
import type { Job } from 'bullmq';
import { JobGuard } from '../../platform/failures/job-guard.service.js';
import { wasRecorded } from '../../platform/failures/recorded-failure.js';
import type { AlertDeliveryPayload } from '../../platform/queues/job-payloads.js';
import { QueueName } from '../../platform/queues/queue-names.js';
import { WORKER_OPTIONS } from '../../platform/queues/worker-options.js';
import { AlertDeliveriesRepository } from './alert-deliveries.repository.js';
import { AlertSender, type AlertSendResult } from './alert-sender.service.js';
import { type AlertCheckResult, AlertWatch } from './alert-watch.service.js';

/** Deliveries sent at once by one process: one slow receiver does not hold up the others. */
const CONCURRENCY = 4;

/**
 * Why: the alerts' queue. The scheduled job (no delivery) looks at every shop's state and
 * enqueues the deliveries of the changes that held (`AlertWatch`); it fails nothing (a look that
 * cannot read the states is logged, and the next one tries again). A delivery's job sends it
 * once (`AlertSender`) inside the job guard: a receiver that is down or busy is retried with
 * back-off (`CONNECTOR_ALERT_ATTEMPTS`, `CONNECTOR_ALERT_BACKOFF_MS`), then the delivery is
 * marked failed and lands in the failures inbox, from where a replay sends it again.
 */
@Processor(QueueName.ALERT_DELIVERY, WORKER_OPTIONS)
export class AlertDeliveryJob extends WorkerHost implements OnApplicationBootstrap {
  private readonly logger = new Logger('Alerts');

  constructor(
    private readonly guard: JobGuard,
    private readonly watch: AlertWatch,
    private readonly sender: AlertSender,
    private readonly deliveries: AlertDeliveriesRepository,
  ) {
    super();
  }

  onApplicationBootstrap(): void {
    this.worker.concurrency = CONCURRENCY;
  }

  async process(
    job: Job<AlertDeliveryPayload>,
    token?: string,
  ): Promise<AlertCheckResult | AlertSendResult | { failed: string }> {
    const { deliveryId } = job.data;
    if (deliveryId === undefined) {
      try {
        return await this.watch.check();
      } catch (error) {
        this.logger.warn(`The alerts could not look at the shops' states: ${(error as Error).message}`);
        return { failed: (error as Error).message };
      }
    }
    try {
      return await this.guard.run(job, token, { shop: '*', key: alertDeliverySubject(deliveryId) }, () =>
        this.sender.send(deliveryId),
      );
    } catch (error) {
      // The guard recorded it in the failures inbox: no attempt is left.
      if (wasRecorded(error)) await this.deliveries.end(deliveryId, 'failed');
      throw error;
    }
  }
}

/** The subject an alert delivery's failures are recorded under (one per delivery). */
export function alertDeliverySubject(deliveryId: string): string {
  return `alert-delivery:${deliveryId}`;
}
