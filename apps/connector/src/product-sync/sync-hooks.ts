import type { SyncOutcome, SyncSubject } from './apply/sync-subject.js';

/**
 * Points in a product sync where tests observe or hold the job (a run's concurrency, a delivery
 * sent while the job runs). No-ops in production; `createConnector({ syncHooks })` sets them.
 */
export interface SyncHooks {
  /** Inside the product lock, before anything is read. */
  runStarted(subject: SyncSubject): void;
  /** The product was read from Shopify; the plan comes next. */
  afterShopifyRead(subject: SyncSubject): Promise<void>;
  /** Inside the product lock, after the run. */
  runEnded(subject: SyncSubject, outcome: SyncOutcome): void;
  /** Another job holds the product's lock: this one is delayed. */
  lockBusy(subject: SyncSubject): void;
  /**
   * The fault point: a catalog create answered, and the map does not know its skuId yet. A test
   * throws here to play a crash at exactly that step.
   */
  afterCatalogCreate(subject: SyncSubject, supplierSku: string): Promise<void>;
}

export const NO_SYNC_HOOKS: SyncHooks = {
  runStarted: () => undefined,
  afterShopifyRead: async () => undefined,
  runEnded: () => undefined,
  lockBusy: () => undefined,
  afterCatalogCreate: async () => undefined,
};
