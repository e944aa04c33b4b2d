import { Injectable, type OnModuleInit } from '@nestjs/common';
import { ShopDataRegistry } from '../platform/reporting/shop-data-registry.service.js';
import { Reconciler } from './reconciler.service.js';
import { ResyncRunsRepository } from './resync-runs.repository.js';

/** Why: a redacted shop's resync runs and reconciliation checkpoint go (`shop/redact`). */
@Injectable()
export class ResyncShopData implements OnModuleInit {
  constructor(
    private readonly registry: ShopDataRegistry,
    private readonly runs: ResyncRunsRepository,
    private readonly reconciler: Reconciler,
  ) {}

  onModuleInit(): void {
    this.registry.register({
      tables: ['reconcile_checkpoints', 'resync_run_products', 'resync_runs'],
      purge: async (shop) => (await this.runs.purgeShop(shop)) + (await this.reconciler.purgeShop(shop)),
    });
  }
}
