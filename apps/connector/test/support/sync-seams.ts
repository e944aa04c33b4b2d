import type { Type } from '@nestjs/common';
import type { Job } from 'bullmq';
import type { SyncSubject } from '../../src/product-sync/apply/sync-subject.js';
import { ProductReader } from '../../src/product-sync/product-reader.service.js';
import { SkuMapRepository } from '../../src/product-sync/sku-map/sku-map.repository.js';
import { SyncTurns } from '../../src/product-sync/sync-turns.service.js';

/**
 * Points in a product sync where tests observe or hold the job (a run's concurrency, a delivery
 * sent while the job runs). Not in the connector: `syncSeams` makes them provider overrides.
 */
export interface SyncHooks {
  /** Inside the product lock, before anything is read. */
  runStarted(subject: SyncSubject): void;
  /** The product was read from Shopify; the plan comes next. */
  afterShopifyRead(subject: SyncSubject): Promise<void>;
  /** Inside the product lock, after a run that ended (not one that threw or was put off). */
  runEnded(subject: SyncSubject, outcome: string): void;
  /** Another job holds the product's lock: this one is delayed. */
  lockBusy(subject: SyncSubject): void;
  /**
   * The fault point: a catalog create answered, and the map does not know its skuId yet. A test
   * throws here to play a crash at exactly that step.
   */
  afterCatalogCreate(at: { shop: string }, supplierSku: string): Promise<void>;
}

/** A provider the harness replaces (`overrideProvider(provide).useClass(useClass)`). */
export interface ProviderOverride {
  provide: Type;
  useClass: Type;
}

/** The overrides that call `hooks` at their points; none when no hook is given. */
export function syncSeams(hooks: Partial<SyncHooks> = {}): ProviderOverride[] {
  const { runStarted, runEnded, lockBusy, afterShopifyRead, afterCatalogCreate } = hooks;
  const overrides: ProviderOverride[] = [];
  if (runStarted || runEnded || lockBusy) {
    class ObservedTurns extends SyncTurns {
      override take<T>(job: Job, token: string | undefined, subject: SyncSubject, work: () => Promise<T>) {
        return super.take(job, token, subject, async () => {
          runStarted?.(subject);
          const outcome = await work();
          runEnded?.(subject, String(outcome));
          return outcome;
        });
      }

      override busy(job: Job, token: string | undefined, subject: SyncSubject): Promise<never> {
        lockBusy?.(subject);
        return super.busy(job, token, subject);
      }
    }
    overrides.push({ provide: SyncTurns, useClass: ObservedTurns });
  }
  if (afterShopifyRead) {
    const held: SyncHooks['afterShopifyRead'] = afterShopifyRead;
    class HeldReader extends ProductReader {
      override async read(...args: Parameters<ProductReader['read']>) {
        const read = await super.read(...args);
        await held(args[0]);
        return read;
      }
    }
    overrides.push({ provide: ProductReader, useClass: HeldReader });
  }
  if (afterCatalogCreate) {
    const fault: SyncHooks['afterCatalogCreate'] = afterCatalogCreate;
    // The map records a created record's skuId (`markLive`) right after the catalog's answer.
    class FaultyMap extends SkuMapRepository {
      override async markLive(...args: Parameters<SkuMapRepository['markLive']>) {
        await fault({ shop: args[0] }, args[1]);
        return super.markLive(...args);
      }
    }
    overrides.push({ provide: SkuMapRepository, useClass: FaultyMap });
  }
  return overrides;
}
