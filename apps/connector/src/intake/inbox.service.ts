import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '#lib/clock';
import { ConnectorError } from '../platform/http/connector.error.js';
import { EnqueueBatcher } from './enqueue-batcher.service.js';
import { InboxRepository } from './inbox.repository.js';
import type { InboxEntry } from './inbox-entry.entity.js';
import { InboxWriter } from './inbox-writer.service.js';
import type { IntakeOutcome } from './intake-outcome.js';
import type { VerifiedDelivery } from './verified-delivery.js';

/**
 * The request path's only work after the signature check: store the delivery (unique per shop on
 * its webhook id; concurrent requests share INSERTs, `InboxWriter`) and hand it to the enqueue batcher, which enqueues its product's sync a few ms
 * later, off the answer's path (a stored delivery is never lost: the sweeper enqueues what the
 * batcher could not). A replay stores nothing and only hands over again a delivery whose enqueue
 * never happened. Storage failure is a 503 so Shopify sends it again.
 */
@Injectable()
export class InboxService {
  private readonly logger = new Logger('Inbox');

  constructor(
    private readonly repository: InboxRepository,
    private readonly writer: InboxWriter,
    private readonly batcher: EnqueueBatcher,
    private readonly clock: Clock,
  ) {}

  async accept(delivery: VerifiedDelivery): Promise<IntakeOutcome> {
    const { status, entry } = await this.store(delivery);
    const outcome = {
      status,
      state: entry.state,
      rejection: entry.state === 'rejected' ? entry.outcome : null,
    };
    if (entry.state !== 'received') return { ...outcome, queued: false };
    if (status === 'duplicate' && entry.enqueuedAt !== null) return { ...outcome, queued: true };
    return { ...outcome, queued: this.handOver(entry) };
  }

  private async store(
    delivery: VerifiedDelivery,
  ): Promise<{ status: IntakeOutcome['status']; entry: InboxEntry }> {
    try {
      const inserted = await this.writer.insert(delivery, new Date(this.clock.now()));
      if (inserted) return { status: 'accepted', entry: inserted };
      const existing = await this.repository.findByWebhookId(delivery.shop, delivery.webhookId);
      if (existing) return { status: 'duplicate', entry: existing };
    } catch (error) {
      this.logger.error(
        `Could not store delivery ${delivery.webhookId} of ${delivery.shop}: ${describe(error)}`,
      );
    }
    throw ConnectorError.storageUnavailable();
  }

  /** Whether the batcher took it (false: no product id, or not taken; the sweeper has it). */
  private handOver(entry: InboxEntry): boolean {
    if (entry.productId === null) return false;
    return this.batcher.add({ id: entry.id, shop: entry.shop, productId: entry.productId });
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
