import { Injectable } from '@nestjs/common';
import type { CanonicalProduct } from '../clients/shopify/canonical-product.js';
import { CatalogSyncSteps } from './apply/catalog-sync-steps.service.js';
import type { SyncResult, SyncRun } from './apply/sync-run.js';
import type { SyncSubject } from './apply/sync-subject.js';
import { ProductSyncStates } from './product-sync-states.repository.js';

/**
 * Why: the sync's apply stage. The catalog is made to match the product (`CatalogSyncSteps`:
 * plan -> calls -> map), then the product's state says so: the `updatedAt` applied, or the
 * tombstone (only once the deletes succeeded).
 */
@Injectable()
export class SyncApplier {
  constructor(
    private readonly steps: CatalogSyncSteps,
    private readonly states: ProductSyncStates,
  ) {}

  /** The catalog records of the product as read. */
  async upsert(subject: SyncSubject, run: SyncRun, product: CanonicalProduct): Promise<SyncResult> {
    const applied = await this.steps.apply(subject, { kind: 'upsert', product }, run);
    await this.states.applied(subject, product.updatedAt);
    return { outcome: 'synced', product, applied };
  }

  /** Deletes the product's records, then tombstones it. */
  async remove(
    subject: SyncSubject,
    run: SyncRun,
    cause: 'shopify-delete' | 'not-found',
  ): Promise<SyncResult> {
    const applied = await this.steps.apply(subject, { kind: 'delete', cause }, run);
    await this.states.tombstone(subject);
    return { outcome: 'deleted', product: null, applied };
  }
}
