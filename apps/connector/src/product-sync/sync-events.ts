import { Injectable, Module } from '@nestjs/common';
import type { CanonicalProduct } from '../clients/shopify/canonical-product.js';
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
}

/** A later stage's reaction to a finished sync (media: enqueue the images; enrichment: edits). */
export type SyncListener = (event: SyncedProduct) => Promise<void>;

/**
 * Whether a later stage waits for the product's next sync to read it (a running resync that
 * listed it and has not heard back): a webhook or sweep run then reads the product rather than
 * skip it, since the stage's own request may have been deduplicated into that run's job.
 */
export type SyncAwaiter = (subject: { shop: string; productId: string }) => Promise<boolean>;

/**
 * Why: later stages (media, enrichment) must follow each product sync, but the sync may not
 * import them (imports go one way). They register here at module init; the sync job emits once
 * per run, still inside the product lock (and for a skipped product a stage awaits that is
 * deleted for good: `tombstoned`, so the stage stops waiting). A listener that throws fails the run, so the job is
 * retried (the sync itself is idempotent: a second run makes no catalog calls); nothing is
 * swallowed.
 */
@Injectable()
export class SyncEvents {
  private readonly listeners: Array<{ name: string; listener: SyncListener }> = [];
  private readonly awaiters: SyncAwaiter[] = [];

  /** `name` says who listens, in errors and logs; `awaits`: when the stage waits for a read. */
  onSynced(name: string, listener: SyncListener, options: { awaits?: SyncAwaiter } = {}): void {
    this.listeners.push({ name, listener });
    if (options.awaits) this.awaiters.push(options.awaits);
  }

  /** Whether a later stage waits for this product's sync to read it (see `SyncAwaiter`). */
  async awaited(subject: { shop: string; productId: string }): Promise<boolean> {
    for (const awaits of this.awaiters) if (await awaits(subject)) return true;
    return false;
  }

  async emitSynced(event: SyncedProduct): Promise<void> {
    for (const { name, listener } of this.listeners) {
      try {
        await listener(event);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        throw new Error(`after-sync listener "${name}" failed: ${reason}`, { cause: error });
      }
    }
  }
}

/** Static, so the sync and every later stage share one `SyncEvents`. */
@Module({ providers: [SyncEvents], exports: [SyncEvents] })
export class SyncEventsModule {}
