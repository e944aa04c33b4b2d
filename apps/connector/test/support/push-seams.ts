import type { PushStateChanges } from '../../src/write-back/store/write-back-states.repository.js';
import { WriteBackStates } from '../../src/write-back/store/write-back-states.repository.js';
import type { ProviderOverride } from './sync-seams.js';

/** The product a push step is about. */
export interface PushSubject {
  shop: string;
  productId: string;
}

/**
 * Points in a write-back push where a test stops the run as a crash would, or acts in between
 * (a merchant's edit). A test sets a method for its case and puts the no-op back after it.
 * Not in the connector: `pushSeamOverrides` replaces the push states' repository.
 */
export class PushSeams {
  /** After the intents are committed, before any Shopify write. */
  afterIntent = async (_subject: PushSubject): Promise<void> => undefined;
  /** After the Shopify writes, before their outcomes are committed. */
  afterWrite = async (_subject: PushSubject): Promise<void> => undefined;
}

/**
 * `WriteBackStates` calling the seams around the push's two saves that matter: the save of the
 * intents (before the writes) and the save of the outcomes (after them, with `dropIntents`).
 */
export function pushSeamOverrides(seams: PushSeams): ProviderOverride[] {
  class SeamedStates extends WriteBackStates {
    override async save(
      shop: string,
      productId: string,
      changes: PushStateChanges,
      jobId: string | null = null,
    ): Promise<void> {
      const outcomes = changes.dropIntents !== undefined && (changes.history?.length ?? 0) > 0;
      if (outcomes) await seams.afterWrite({ shop, productId });
      await super.save(shop, productId, changes, jobId);
      if ((changes.intents?.length ?? 0) > 0) await seams.afterIntent({ shop, productId });
    }
  }
  return [{ provide: WriteBackStates, useClass: SeamedStates }];
}
