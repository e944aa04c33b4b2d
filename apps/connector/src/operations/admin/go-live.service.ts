import { Injectable, Logger } from '@nestjs/common';
import { SyncEnqueuer } from '../../intake/sync-enqueuer.service.js';
import { PlannedWritesRepository } from '../../product-sync/planned/planned-writes.repository.js';
import { MetafieldDefinitions } from '../../write-back/definitions/metafield-definitions.service.js';
import { PushEnqueuer } from '../../write-back/push/push-enqueuer.service.js';

/**
 * Why: a shop leaving shadow must send what it planned, but from the current state: its planned
 * writes are cleared and every product they were for gets a sync (reason `go-live`) that reads
 * and plans again, now live, and a push (reason `go-live`) that reads both sides and decides
 * again (its write-back was held back in shadow with no push state stored). Nothing stale is sent (the plan is new), nothing twice (the old
 * plan is gone), nothing lost (each such product is synced, whatever its inbox holds). The
 * metafield definitions the shadow planned are made now.
 */
@Injectable()
export class GoLive {
  private readonly logger = new Logger('GoLive');

  constructor(
    private readonly planned: PlannedWritesRepository,
    private readonly syncs: SyncEnqueuer,
    private readonly definitions: MetafieldDefinitions,
    private readonly pushes: PushEnqueuer,
  ) {}

  /** Resolves to the number of products synced again. */
  async start(shop: string): Promise<number> {
    const productIds = await this.planned.clearShop(shop);
    await this.syncs.enqueueMany(
      productIds.map((productId) => ({ shop, productId, reason: 'go-live' as const })),
    );
    await this.pushes.enqueueMany(
      productIds.map((productId) => ({ shop, productId, reason: 'go-live' as const })),
    );
    // In the background: a Shopify that does not answer must not hold the switch's answer.
    void this.definitions.recheck(shop).catch(() => undefined);
    this.logger.log(`${shop} went live: ${productIds.length} product(s) with planned writes synced again`);
    return productIds.length;
  }
}
