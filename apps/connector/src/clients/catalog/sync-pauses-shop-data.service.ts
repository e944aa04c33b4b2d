import { Injectable, type OnModuleInit } from '@nestjs/common';
import { ShopDataRegistry } from '../../platform/reporting/shop-data-registry.service.js';
import { SyncPauseRepository } from './sync-pause.repository.js';

/** Why: a redacted shop's operator pause goes with its other data (`shop/redact`). */
@Injectable()
export class SyncPausesShopData implements OnModuleInit {
  constructor(
    private readonly registry: ShopDataRegistry,
    private readonly pauses: SyncPauseRepository,
  ) {}

  onModuleInit(): void {
    this.registry.register({
      tables: ['sync_pauses'],
      purge: async (shop) => this.pauses.purgeShop(shop),
    });
  }
}
