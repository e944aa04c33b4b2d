import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { subscriptionCheckJobOptions } from '../platform/queues/job-options.js';
import type { SubscriptionCheckPayload } from '../platform/queues/job-payloads.js';
import { JobName, QueueName } from '../platform/queues/queue-names.js';
import { ShopTokens } from '../shops/shop-tokens.service.js';

/**
 * Why: an uninstall deletes a shop's subscriptions, so a shop that becomes active again (an
 * install's callback, a client-credentials shop granted a token again after an uninstall) has
 * none; waiting for the scheduled check (`CONNECTOR_SHOPIFY_SUBSCRIPTION_CHECK_MS`, an hour by
 * default) would leave it without webhooks meanwhile. `ShopTokens` tells this each time, and the
 * shop's subscription check runs at once (that shop's alone).
 */
@Injectable()
export class SubscriptionCheckRequests implements OnModuleInit {
  private readonly logger = new Logger('SubscriptionCheckRequests');

  constructor(
    private readonly tokens: ShopTokens,
    @InjectQueue(QueueName.SUBSCRIPTION_CHECK) private readonly queue: Queue<SubscriptionCheckPayload>,
  ) {}

  onModuleInit(): void {
    this.tokens.onActiveAgain((shop) => {
      void this.ask(shop);
    });
  }

  /** Enqueues the shop's subscription check; a refused add leaves the shop to the scheduled one. */
  async ask(shop: string): Promise<void> {
    try {
      await this.queue.add(JobName.SUBSCRIPTION_CHECK, { shop }, subscriptionCheckJobOptions());
    } catch (error) {
      this.logger.warn(
        `${shop} is active again but its subscription check could not be enqueued (${String(error)}); the scheduled one subscribes it`,
      );
    }
  }
}
