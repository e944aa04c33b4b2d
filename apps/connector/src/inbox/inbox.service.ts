import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '#lib/clock';
import { ConnectorError } from '../http/connector.error.js';
import type { DeliveryInbox, IntakeOutcome } from '../webhooks/delivery-inbox.js';
import type { VerifiedDelivery } from '../webhooks/verified-delivery.js';
import { InboxRepository } from './inbox.repository.js';
import type { InboxEntry } from './inbox-entry.entity.js';
import { SyncEnqueuer } from './sync-enqueuer.js';

/**
 * The request path's only work after the signature check: store the delivery (unique per shop on
 * its webhook id), then enqueue its product's sync. A replay stores nothing and only completes
 * an enqueue that failed the first time. Storage failure is a 503 so Shopify sends it again.
 */
@Injectable()
export class InboxService implements DeliveryInbox {
  private readonly logger = new Logger('Inbox');

  constructor(
    private readonly repository: InboxRepository,
    private readonly enqueuer: SyncEnqueuer,
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
    return { ...outcome, queued: await this.enqueue(entry) };
  }

  private async store(
    delivery: VerifiedDelivery,
  ): Promise<{ status: IntakeOutcome['status']; entry: InboxEntry }> {
    try {
      const inserted = await this.repository.insert(delivery, new Date(this.clock.now()));
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

  private async enqueue(entry: InboxEntry): Promise<boolean> {
    if (entry.productId === null) return false;
    try {
      await this.enqueuer.enqueue({ shop: entry.shop, productId: entry.productId, reason: 'webhook' });
      await this.repository.markEnqueued(entry.id, new Date(this.clock.now()));
      return true;
    } catch (error) {
      // Stored is kept: the sweeper enqueues it later (README, "Intake").
      this.logger.warn(`Delivery ${entry.webhookId} stored but not queued yet: ${describe(error)}`);
      return false;
    }
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
