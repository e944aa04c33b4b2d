import { Injectable } from '@nestjs/common';
import type { ProductRecord } from '#lib/catalog-contract';
import { PlannedWritesRepository } from '../../product-sync/planned/planned-writes.repository.js';
import { catalogValueOf, isWritten } from '../decide/catalog-value.js';
import { EnrichmentOutbox } from '../store/enrichment-outbox.repository.js';
import { WriteBackStates } from '../store/write-back-states.repository.js';
import { WRITE_BACK_SOURCE } from './planned-write-backs.js';

/** A product a poll found changed, with its changed records (write-back attributes kept). */
export interface ChangedProduct {
  productId: string;
  records: readonly ProductRecord[];
}

/**
 * Why: a push reads the product's targets in Shopify (Admin API points) before it knows whether
 * it has anything to do, and a whole-shop resync changes every record it creates: without this,
 * a 100,000-product resync gave 100,000 pushes that each read Shopify and wrote nothing.
 *
 * A changed product gives a push work only when the push could change something: one of its
 * changed records holds a value a push writes (approved, or entered by a person:
 * `catalogValueOf`), or the product already has push history a change may take back or settle
 * (a push state, a planned write of a shadow shop, or work still pending, whose snapshot this
 * change makes stale). The others' records are still marked seen: a later approval changes the
 * record's hash and gives work then.
 */
@Injectable()
export class PushHistory {
  constructor(
    private readonly states: WriteBackStates,
    private readonly planned: PlannedWritesRepository,
    private readonly outbox: EnrichmentOutbox,
  ) {}

  /** The products of `changed` that would give a push nothing to do. */
  async idle(
    shop: string,
    changed: readonly ChangedProduct[],
    attributes: readonly string[],
  ): Promise<Set<string>> {
    const quiet = changed
      .filter((product) => !product.records.some((record) => holdsPushable(record, attributes)))
      .map((product) => product.productId);
    if (quiet.length === 0) return new Set();
    const [states, plans, pending] = await Promise.all([
      this.states.productsAmong(shop, quiet),
      this.planned.productsAmong(shop, WRITE_BACK_SOURCE, quiet),
      this.outbox.pendingAmong(shop, quiet),
    ]);
    return new Set(quiet.filter((p) => !states.has(p) && !plans.has(p) && !pending.has(p)));
  }
}

/** Whether a push would write one of the record's write-back attributes. */
function holdsPushable(record: ProductRecord, attributes: readonly string[]): boolean {
  return attributes.some((attribute) => isWritten(catalogValueOf(record, attribute)));
}
