import type { CanonicalProduct } from '../clients/shopify/canonical-product.js';
import type { SyncReason } from '../platform/queues/job-payloads.js';
import type { SyncOutcome } from './apply/sync-subject.js';

/** A product sync that ended inside the product's lock: what later stages react to. */
export interface SyncedProduct {
  shop: string;
  /** Shopify's numeric product id, a decimal string. */
  productId: string;
  outcome: SyncOutcome;
  /** The product as read for this run (`synced`); null when it was not read or is gone. */
  product: CanonicalProduct | null;
  /** The BullMQ job id of the run, for correlation. */
  jobId: string | null;
  /** Why the run was asked for (its job's reason): later stages queue a bulk run's work as bulk. */
  reason?: SyncReason;
}

/**
 * A later stage's reaction to each finished product sync (media: enqueue the images; resync: a
 * run's progress; enrichment: merchant edits). The listeners are listed where the app is
 * assembled (`afterSyncModule`, connector.module.ts), in the order they run.
 */
export interface AfterSyncListener {
  /** Who listens, in errors and logs. */
  readonly afterSyncName: string;
  afterSync(event: SyncedProduct): Promise<void>;
  /**
   * Whether the stage waits for the product's next sync to read it (a running resync that
   * listed it and has not heard back): a webhook or sweep run then reads the product rather than
   * skip it, since the stage's own request may have been deduplicated into that run's job.
   */
  awaitsSync?(subject: { shop: string; productId: string }): Promise<boolean>;
}

/**
 * Why: later stages (media, resync, enrichment) must follow each product sync, but the sync may
 * not import them (imports go one way). The app's assembly gives their listeners to this class
 * (connector.module.ts); the sync job emits once per run, still inside the product lock. A
 * listener that throws fails the run, so the job is retried (the sync itself is idempotent: a
 * second run makes no catalog calls); nothing is swallowed.
 */
export class SyncEvents {
  constructor(private readonly listeners: readonly AfterSyncListener[]) {}

  /** Whether a later stage waits for this product's sync to read it (`awaitsSync`). */
  async awaited(subject: { shop: string; productId: string }): Promise<boolean> {
    for (const listener of this.listeners) if (await listener.awaitsSync?.(subject)) return true;
    return false;
  }

  async emitSynced(event: SyncedProduct): Promise<void> {
    for (const listener of this.listeners) {
      try {
        await listener.afterSync(event);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        throw new Error(`after-sync listener "${listener.afterSyncName}" failed: ${reason}`, {
          cause: error,
        });
      }
    }
  }
}
