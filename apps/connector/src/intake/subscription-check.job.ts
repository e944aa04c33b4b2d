import { Processor, WorkerHost } from '@nestjs/bullmq';
import type { Job } from 'bullmq';
import { ShopifySettings } from '../platform/config/settings.js';
import { JobGuard } from '../platform/failures/job-guard.service.js';
import type { SubscriptionCheckPayload } from '../platform/queues/job-payloads.js';
import { QueueName } from '../platform/queues/queue-names.js';
import { ShopTurns } from '../shops/shop-turns.service.js';
import { Shops } from '../shops/shops.js';
import { type SubscriptionCheckResult, SubscriptionRepair } from './subscription-repair.service.js';

/**
 * The subscription check: scheduled (one job per tick across replicas, each tick the shops whose
 * turn came: every shop once per `CONNECTOR_SHOPIFY_SUBSCRIPTION_CHECK_MS`, spread over it), or
 * asked for by an install's callback (that shop). A shop whose row is active but for which this process has no token yet
 * (installed through another replica, whose news reaches this one at its next look at the row)
 * makes the job wait that long and run again, rather than leave the shop without its webhooks
 * until the next scheduled check. A shop this process does not serve yet is looked for in the
 * table first (`Shops.findFresh`: installed at another replica a moment ago, the job here before
 * this replica's periodic read has seen the row).
 */
@Processor(QueueName.SUBSCRIPTION_CHECK)
export class SubscriptionCheckJob extends WorkerHost {
  constructor(
    private readonly repair: SubscriptionRepair,
    private readonly guard: JobGuard,
    private readonly turns: ShopTurns,
    private readonly shops: Shops,
    private readonly settings: ShopifySettings,
  ) {
    super();
  }

  async process(job: Job<SubscriptionCheckPayload>, token?: string): Promise<SubscriptionCheckResult[]> {
    const { shop } = job.data;
    const asked = shop === undefined ? undefined : await this.shops.findFresh(shop);
    const shops =
      shop === undefined
        ? this.turns.due(
            QueueName.SUBSCRIPTION_CHECK,
            this.settings.subscriptionCheckMs,
            job.id,
            job.processedOn,
          )
        : asked === undefined
          ? []
          : [asked];
    const results = await this.repair.checkAll(shops);
    const waits = results.flatMap((result) => (result.retryInMs === undefined ? [] : [result.retryInMs]));
    if (waits.length > 0) await this.guard.delay(job, token, Math.min(...waits));
    return results;
  }
}
