import { Injectable, type OnModuleInit } from '@nestjs/common';
import { ShopDataRegistry } from '../platform/reporting/shop-data-registry.service.js';
import { EnrichmentOutbox } from './store/enrichment-outbox.repository.js';
import { EnrichmentPollRuns } from './store/enrichment-poll-runs.repository.js';
import { WriteBackStates } from './store/write-back-states.repository.js';

/**
 * Why: a redacted shop's enrichment checkpoints, outbox, watchlist and push history go
 * (`shop/redact`), and its part of each poll's counts (a JSON key, not a shop column).
 */
@Injectable()
export class WriteBackShopData implements OnModuleInit {
  constructor(
    private readonly registry: ShopDataRegistry,
    private readonly outbox: EnrichmentOutbox,
    private readonly states: WriteBackStates,
    private readonly polls: EnrichmentPollRuns,
  ) {}

  onModuleInit(): void {
    this.registry.register({
      tables: [
        'enrichment_checkpoint',
        'enrichment_outbox',
        'enrichment_seen',
        'review_watchlist',
        'write_back_push',
        'write_back_state',
      ],
      purge: async (shop) =>
        (await this.outbox.purgeShop(shop)) +
        (await this.states.purgeShop(shop)) +
        (await this.polls.forgetShop(shop)),
    });
  }
}
