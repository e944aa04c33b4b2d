import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { SyncEnqueuer } from '../intake/sync-enqueuer.service.js';
import { ShopMappings } from '../mapping/shop-mappings.service.js';
import type { ValidatedMapping } from '../mapping/validated-mapping.js';
import { SkuMapRepository } from './sku-map/sku-map.repository.js';

/**
 * Why: a record is built from some mapping entries and some of the account's definitions; when
 * either changes (the mapping file edited and the connector restarted, a DROPDOWN value added in
 * the portal), the records built on what changed are stale, and the records that had a mapping
 * gap may now map. After each check that finds a shop's mapping ready, the hash each record
 * stored is compared with what its dependencies hash to now, and exactly the products whose
 * records differ are resynced (reason `drift`). Nothing else is touched.
 */
@Injectable()
export class DriftScanner implements OnModuleInit {
  private readonly logger = new Logger('DriftScanner');

  constructor(
    private readonly mappings: ShopMappings,
    private readonly map: SkuMapRepository,
    private readonly enqueuer: SyncEnqueuer,
  ) {}

  onModuleInit(): void {
    this.mappings.onReady((shop, mapping) => this.scan(shop, mapping).then(() => undefined));
  }

  /** Enqueues a `drift` sync for every product with a record built on another configuration. */
  async scan(shop: string, mapping: ValidatedMapping): Promise<string[]> {
    // Compared per distinct configuration, not per record: the check runs at every mapping
    // refresh, and reading 100,000 rows each time was a memory spike of tens of MB.
    const stale = (await this.map.configurationGroups(shop)).filter(
      (group) => mapping.configurationHash(group.dependencies) !== group.hash,
    );
    const drifted = await this.map.productsBuiltOn(shop, stale);
    for (const productId of drifted) await this.enqueuer.enqueue({ shop, productId, reason: 'drift' });
    if (drifted.length > 0) {
      this.logger.log(`${shop}: the mapping or the account changed: ${drifted.length} product(s) resynced`);
    }
    return drifted;
  }
}
