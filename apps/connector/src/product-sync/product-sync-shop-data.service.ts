import { Injectable, type OnModuleInit } from '@nestjs/common';
import { ShopDataRegistry } from '../platform/reporting/shop-data-registry.service.js';
import { ShopModes } from '../shops/shop-modes.service.js';
import { MappingGapsRepository } from './gaps/mapping-gaps.repository.js';
import { PlannedWritesRepository } from './planned/planned-writes.repository.js';
import { ProductSyncStates } from './product-sync-states.repository.js';
import { ResyncSnapshots } from './resync-snapshots.repository.js';
import { ShopScopeRepository } from './scope/shop-scope.repository.js';
import { SkuMapRepository } from './sku-map/sku-map.repository.js';
import { SyncRecords } from './sync-records.repository.js';

/** Why: a redacted shop's sku map, sync states, run records, applied scope, planned writes, mapping gaps and stored mode go (`shop/redact`); the catalog's records are the merchant's and stay. */
@Injectable()
export class ProductSyncShopData implements OnModuleInit {
  constructor(
    private readonly registry: ShopDataRegistry,
    private readonly skuMap: SkuMapRepository,
    private readonly states: ProductSyncStates,
    private readonly records: SyncRecords,
    private readonly scopes: ShopScopeRepository,
    private readonly snapshots: ResyncSnapshots,
    private readonly planned: PlannedWritesRepository,
    private readonly modes: ShopModes,
    private readonly gaps: MappingGapsRepository,
  ) {}

  onModuleInit(): void {
    this.registry.register({
      tables: [
        'mapping_gaps',
        'planned_writes',
        'product_sync_state',
        'resync_snapshots',
        'shop_modes',
        'shop_scope',
        'sku_map',
        'sync_records',
      ],
      purge: async (shop) =>
        (await this.records.purgeShop(shop)) +
        (await this.states.purgeShop(shop)) +
        (await this.skuMap.purgeShop(shop)) +
        (await this.scopes.purgeShop(shop)) +
        (await this.snapshots.purgeShop(shop)) +
        (await this.planned.purgeShop(shop)) +
        (await this.modes.purgeShop(shop)) +
        (await this.gaps.purgeShop(shop)),
    });
  }
}
