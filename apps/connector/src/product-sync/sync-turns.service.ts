import { Injectable } from '@nestjs/common';
import type { Job, Worker } from 'bullmq';
import { CatalogGate } from '../clients/catalog/catalog-gate.service.js';
import { ShopMappings } from '../mapping/shop-mappings.service.js';
import { SyncSettings } from '../platform/config/settings.js';
import { JobGuard } from '../platform/failures/job-guard.service.js';
import type { SyncSubject } from './apply/sync-subject.js';
import { ProductLocks } from './product-locks.service.js';

/**
 * Why: when a product's sync may run, in one place. How many at once (`CONNECTOR_SYNC_CONCURRENCY`),
 * never while the shop's catalog is paused or its mapping not checked yet, and one at a time per
 * product (its lock, shared with the write-back); each run inside `JobGuard`, which decides what
 * an error means. A turn not given now is a delayed job, no attempt spent.
 */
@Injectable()
export class SyncTurns {
  constructor(
    private readonly guard: JobGuard,
    private readonly gate: CatalogGate,
    private readonly mappings: ShopMappings,
    private readonly locks: ProductLocks,
    private readonly settings: SyncSettings,
  ) {}

  /** The sync workers' concurrency, set once they exist. */
  configure(worker: Worker): void {
    worker.concurrency = this.settings.concurrency;
  }

  /** Waits out a paused catalog or a mapping not checked yet, takes the product's lock, runs `work`. */
  take<T>(job: Job, token: string | undefined, subject: SyncSubject, work: () => Promise<T>): Promise<T> {
    return this.guard.run(job, token, { shop: subject.shop, key: subject.productId }, async () => {
      const pausedFor = this.gate.waitFor(subject.shop);
      if (pausedFor !== null) return this.guard.delay(job, token, pausedFor);
      const mappingPendingFor = this.mappings.waitFor(subject.shop);
      if (mappingPendingFor !== null) return this.guard.delay(job, token, mappingPendingFor);
      return this.locks.withLock(subject, work, () => this.busy(job, token, subject));
    });
  }

  /** Another job holds the product's lock: this one tries again after `CONNECTOR_SYNC_LOCK_RETRY_MS`. */
  busy(job: Job, token: string | undefined, _subject: SyncSubject): Promise<never> {
    return this.guard.delay(job, token, this.settings.lockRetryMs);
  }

  /** Puts the job off by `ms` (a delete's grace), no attempt spent. */
  later(job: Job, token: string | undefined, ms: number): Promise<never> {
    return this.guard.delay(job, token, ms);
  }
}
