import { Injectable } from '@nestjs/common';
import { CatalogLimits } from '#lib/catalog-contract';
import { Clock } from '#lib/clock';
import type { CanonicalProduct } from '../clients/shopify/canonical-product.js';
import { usesExtraSources } from '../clients/shopify/documents/canonical-product.query.js';
import { fetchCanonicalProduct } from '../clients/shopify/fetch-canonical-product.js';
import { ShopifyAdmin } from '../clients/shopify/shopify-admin.service.js';
import type { PendingDelivery } from '../intake/inbox.repository.js';
import { ShopMappings } from '../mapping/shop-mappings.service.js';
import { MediaSettings, SyncSettings } from '../platform/config/settings.js';
import type { SyncRun } from './apply/sync-run.js';
import type { SyncSubject } from './apply/sync-subject.js';
import { ResyncSnapshots } from './resync-snapshots.repository.js';
import { SkuMapRepository } from './sku-map/sku-map.repository.js';

/**
 * Why: the sync's read stage. A webhook is only a notification, so a run reads the product's
 * current state: a resync's sync plans from the snapshot its bulk read took, unless something
 * about the product arrived since that read began (a delivery waiting, or a sync that ran after
 * it), or the shop's mapping reads metafields, the category or collections (the bulk query does
 * not hold them: planning from it would clear those attributes); otherwise, and for every other
 * reason, the canonical read from the Admin API.
 */
@Injectable()
export class ProductReader {
  constructor(
    private readonly mappings: ShopMappings,
    private readonly snapshots: ResyncSnapshots,
    private readonly shopify: ShopifyAdmin,
    private readonly skuMap: SkuMapRepository,
    private readonly media: MediaSettings,
    private readonly settings: SyncSettings,
    private readonly clock: Clock,
  ) {}

  /**
   * The product (null: Shopify no longer has it), and when the state it holds was read.
   * `lastSynced`: when the product last synced, as the run's decision read it.
   */
  async read(
    subject: SyncSubject,
    run: SyncRun,
    pending: PendingDelivery[],
    lastSynced: Date | null,
  ): Promise<{ product: CanonicalProduct | null; readAt: Date }> {
    const sources = this.mappings.mapping(subject.shop)?.sources;
    const snapshotHoldsSources = sources === undefined || !usesExtraSources(sources);
    if (run.reason === 'resync' && !snapshotHoldsSources)
      run.events.push(
        'the mapping reads metafields, the category or collections: no bulk snapshot holds them',
      );
    if (run.reason === 'resync' && snapshotHoldsSources) {
      const snapshot = await this.snapshots.latest(subject);
      // A bulk snapshot holds no option value ids: a product over 200 variants is read afresh.
      if (snapshot !== null && snapshot.product.variantsCount <= CatalogLimits.VARIANTS_PER_PARENT) {
        const after = snapshot.snapshotAt.getTime();
        const newer =
          pending.some((d) => d.receivedAt.getTime() > after) ||
          (lastSynced !== null && lastSynced.getTime() > after);
        if (!newer) {
          run.events.push(`planned from the bulk read of resync run ${snapshot.runId}`);
          return { product: snapshot.product, readAt: snapshot.snapshotAt };
        }
      }
    }
    const readAt = new Date(this.clock.now());
    // Only what the sync needs: the variants last synced (plus a few), the media when that stage is on.
    const read = await fetchCanonicalProduct(this.shopify.forShop(subject.shop), subject.productId, {
      expectedVariants: await this.skuMap.variantCount(subject.shop, subject.productId),
      media: this.media.enabled,
      ...(sources ? { sources } : {}),
      allVariants: this.settings.largeProducts === 'split',
    });
    run.events.push(`read from Shopify (requested cost ${read.requestedCost} points)`);
    return { product: read.product, readAt };
  }
}
