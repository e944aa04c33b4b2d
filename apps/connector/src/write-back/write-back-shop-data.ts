import { Injectable, type OnModuleInit } from '@nestjs/common';
import { ShopDataRegistry } from '../platform/reporting/shop-data-registry.js';
import { EnrichmentOutbox } from './store/enrichment-outbox.repository.js';
import { WriteBackStates } from './store/write-back-states.repository.js';

/** Why: a redacted shop's enrichment checkpoints, outbox, watchlist and push history go (`shop/redact`). */
@Injectable()
export class WriteBackShopData implements OnModuleInit {
  constructor(
    private readonly registry: ShopDataRegistry,
    private readonly outbox: EnrichmentOutbox,
    private readonly states: WriteBackStates,
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
      purge: async (shop) => (await this.outbox.purgeShop(shop)) + (await this.states.purgeShop(shop)),
    });
  }
}
