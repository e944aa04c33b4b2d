import { Injectable } from '@nestjs/common';
import { Clock } from '#lib/clock';
import { InboxRepository, type PendingDelivery } from './inbox.repository.js';

/**
 * Why: a product sync covers the deliveries waiting for the product when it starts, and only
 * those: a delivery that arrives while it runs stays pending for the next run. Intake owns the
 * inbox, so the read and the completion are one call here.
 */
@Injectable()
export class PendingDeliveries {
  constructor(
    private readonly inbox: InboxRepository,
    private readonly clock: Clock,
  ) {}

  /**
   * Runs `work` with the product's pending deliveries (read before anything else), then marks
   * them done with the outcome it returns. A throw (a failure, a delayed job) leaves them pending.
   */
  async cover<T extends string>(
    subject: { shop: string; productId: string },
    work: (pending: PendingDelivery[]) => Promise<T>,
  ): Promise<T> {
    const pending = await this.inbox.pendingFor(subject.shop, subject.productId);
    const outcome = await work(pending);
    await this.inbox.complete(
      pending.map((delivery) => delivery.id),
      outcome,
      new Date(this.clock.now()),
    );
    return outcome;
  }
}
