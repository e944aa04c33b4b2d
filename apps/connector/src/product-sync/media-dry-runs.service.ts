import { Injectable, Module } from '@nestjs/common';
import type { PlannedWrite } from './planned/planned-writes.repository.js';

/** What the media step provides: the image uploads and gallery PATCHes a product's sync would trigger. */
export interface MediaDryRunSource {
  /**
   * The media calls live would make after the product's sync planned `syncWrites` (its planned
   * creates give records the sku map does not hold yet). Reads only; sends and stores nothing.
   */
  plan(shop: string, productId: string, syncWrites: readonly PlannedWrite[]): Promise<PlannedWrite[]>;
}

/**
 * Why: a dry-run resync or reconciliation (issue 31) must show everything a real run would send,
 * and a real product sync is followed by its media job (uploads, gallery PATCHes). The resync is
 * the media step's peer (same layer), so it cannot import it: media provides its planning here
 * at boot, and the dry run asks through this registry. Without a provider (media off, or a test
 * module without media) a dry run plans no media call.
 */
@Injectable()
export class MediaDryRuns {
  private source: MediaDryRunSource | null = null;

  /** The media step plugs in (once, at module init). */
  provide(source: MediaDryRunSource): void {
    this.source = source;
  }

  plan(shop: string, productId: string, syncWrites: readonly PlannedWrite[]): Promise<PlannedWrite[]> {
    return this.source ? this.source.plan(shop, productId, syncWrites) : Promise.resolve([]);
  }
}

/** One `MediaDryRuns` shared by the media step (provider) and the dry runs (consumer). */
@Module({ providers: [MediaDryRuns], exports: [MediaDryRuns] })
export class MediaDryRunsModule {}
