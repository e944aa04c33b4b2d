import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '#lib/clock';
import { BulkProductReader } from '../clients/shopify/bulk-product.reader.js';
import { ShopBulkLock } from '../clients/shopify/shop-bulk-lock.service.js';
import { ShopifyAdmin } from '../clients/shopify/shopify-admin.service.js';
import { allPages, listProductPage, updatedSince } from '../clients/shopify/shopify-product-pages.js';
import { SyncEnqueuer } from '../intake/sync-enqueuer.service.js';
import { ReconcileSettings, ResyncSettings } from '../platform/config/settings.js';
import type { ShopConfig } from '../platform/config/shop-config.js';
import { SkuMapLinks } from '../product-sync/sku-map/sku-map-links.repository.js';
import { Shops } from '../shops/shops.js';
import { ReconcileCheckpointsRepository } from './reconcile-checkpoints.repository.js';
import { SeenProducts } from './seen-products.service.js';

/** Shopify's search index lags writes: each run looks this far before its checkpoint again. */
const OVERLAP_MS = 5 * 60_000;
const PAGE = 250;

/** What one shop's reconciliation enqueued. */
export interface ReconcileResult {
  shop: string;
  changed: number;
  deleted: number;
  /**
   * How the shop's ids were listed for deletions: one bulk query (more mapped products than
   * `CONNECTOR_BULK_THRESHOLD`), or pages (fewer, another bulk read of the shop under way, or a
   * bulk read that failed twice); absent when the run was skipped.
   */
  deletionScan?: 'bulk' | 'pages';
}

/** An operator's reconciliation (`POST /admin/reconcile`): a dry run or not, and where what it finds goes. */
export interface ReconcileRunHooks {
  dryRun: boolean;
  /** Products it found (missed changes, then missed deletions), before they are enqueued. */
  found(productIds: string[]): Promise<void>;
}

/**
 * Converges what webhooks missed (Shopify does not guarantee delivery). Per shop: products
 * updated since the checkpoint whose map row has not applied that `updatedAt` are enqueued; and
 * the shop's product ids (an id-only paged query) are compared with the map: a product the map
 * holds that Shopify no longer lists was deleted without a delivery, and is enqueued too (its
 * sync finds it gone and deletes its records). Reason `reconcile` for both. Runs as a BullMQ
 * job scheduler (`JobSchedulers`), once per `CONNECTOR_RECONCILE_INTERVAL_MS` across replicas, and only enqueues.
 */
@Injectable()
export class Reconciler {
  private readonly logger = new Logger('Reconciler');

  constructor(
    private readonly shopify: ShopifyAdmin,
    private readonly links: SkuMapLinks,
    private readonly seen: SeenProducts,
    private readonly enqueuer: SyncEnqueuer,
    private readonly clock: Clock,
    private readonly settings: ReconcileSettings,
    private readonly shops: Shops,
    private readonly checkpoints: ReconcileCheckpointsRepository,
    private readonly bulk: BulkProductReader,
    private readonly bulkLock: ShopBulkLock,
    private readonly resyncSettings: ResyncSettings,
  ) {}

  /** `shop/redact`: deletes every row of the shop (`ShopDataRegistry`); resolves to how many went. */
  purgeShop(shop: string): Promise<number> {
    return this.checkpoints.purgeShop(shop);
  }

  /**
   * These shops (every shop served by default), one after the other; a shop that fails (Shopify unreachable, a revoked
   * token) does not keep the others from their turn, and fails the job afterwards (it is logged,
   * and the next interval tries again from the same checkpoint).
   */
  async reconcileAll(shops: readonly ShopConfig[] = this.shops.all): Promise<ReconcileResult[]> {
    const results: ReconcileResult[] = [];
    const failed: string[] = [];
    for (const shop of shops) {
      try {
        results.push(await this.reconcile(shop.domain));
      } catch (error) {
        failed.push(shop.domain);
        this.logger.error(`${shop.domain}: reconciliation failed: ${(error as Error).message}`);
      }
    }
    if (failed.length > 0) throw new Error(`reconciliation failed for ${failed.join(', ')}`);
    return results;
  }

  /**
   * One shop. Its first run only records the checkpoint (what came before is a resync's or a
   * link's job); a run soon after the last one (a replica's boot upserting the scheduler runs it
   * at once) is skipped, but one an operator started (`run`). An operator's run hands what it
   * finds to `run.found` first (its run lists them); a dry run then enqueues nothing and moves
   * no checkpoint (without one it finds nothing).
   */
  async reconcile(shop: string, run?: ReconcileRunHooks): Promise<ReconcileResult> {
    const startedAt = this.clock.now();
    const saved = await this.checkpoints.of(shop);
    if (!run && saved && startedAt - saved.lastRunAt.getTime() < this.settings.intervalMs / 2) {
      return { shop, changed: 0, deleted: 0 };
    }
    if (!saved) {
      if (!run?.dryRun) await this.saveCheckpoint(shop, startedAt, 0, 0);
      return { shop, changed: 0, deleted: 0 };
    }
    const found = async (productIds: string[]) => {
      if (productIds.length === 0) return;
      await run?.found(productIds);
      if (run?.dryRun) return;
      await this.enqueuer.enqueueMany(
        productIds.map((productId) => ({ shop, productId, reason: 'reconcile' })),
      );
    };
    const since = new Date(saved.checkpoint.getTime() - OVERLAP_MS);
    const admin = this.shopify.forShop(shop);
    let changed = 0;
    const pages = allPages((after) =>
      listProductPage(admin, { after, first: PAGE, query: updatedSince(since), sortKey: 'UPDATED_AT' }),
    );
    for await (const items of pages) {
      const seen = await this.seen.among(shop, items);
      const missed = items.filter((p) => !seen.has(p.productId)).map((p) => p.productId);
      await found(missed);
      changed += missed.length;
    }
    const { missing, scan } = await this.missingFromShopify(shop);
    await found(missing);
    const deleted = missing.length;
    if (run?.dryRun) return { shop, changed, deleted, deletionScan: scan };
    await this.saveCheckpoint(shop, startedAt, changed, deleted);
    if (changed + deleted > 0) {
      this.logger.warn(`${shop}: enqueued ${changed} missed change(s) and ${deleted} missed deletion(s)`);
    }
    return { shop, changed, deleted, deletionScan: scan };
  }

  private async saveCheckpoint(shop: string, at: number, changed: number, deleted: number): Promise<void> {
    await this.checkpoints.save({
      shop,
      checkpoint: new Date(at),
      lastRunAt: new Date(at),
      lastChanged: changed,
      lastDeleted: deleted,
    });
  }

  /** Products the map holds that Shopify no longer lists. */
  private async missingFromShopify(shop: string): Promise<{ missing: string[]; scan: 'bulk' | 'pages' }> {
    // The map is read first: a product created and synced during the walk is then not missing.
    const mapped = await this.links.mappedProducts(shop);
    const inBulk = mapped.size > this.resyncSettings.bulkThreshold && (await this.listInBulk(shop, mapped));
    if (!inBulk) {
      const admin = this.shopify.forShop(shop);
      for await (const items of allPages((after) => listProductPage(admin, { after, first: PAGE }))) {
        for (const item of items) mapped.delete(item.productId);
      }
    }
    return { missing: [...mapped], scan: inBulk ? 'bulk' : 'pages' };
  }

  /**
   * Takes the shop's listed products out of `mapped` through one bulk query of ids, under the
   * shop's bulk lock; false (pages instead) when another bulk read holds it or the read failed
   * twice. Ids a failed attempt listed are Shopify's all the same.
   */
  private listInBulk(shop: string, mapped: Set<string>): Promise<boolean> {
    return this.bulkLock.withLock(
      shop,
      async () => {
        const report = await this.bulk.readIds(shop, async (ids) => {
          for (const id of ids) mapped.delete(id);
        });
        if (!report.ok) this.logger.warn(`${shop}: the bulk id scan failed twice; listing pages instead`);
        return report.ok;
      },
      async () => false,
    );
  }
}
