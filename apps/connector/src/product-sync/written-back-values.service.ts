import { Injectable, Module } from '@nestjs/common';
import type { ProductRecord } from '#lib/catalog-contract';

/** One written-back target: the Shopify owner (product or variant gid), attribute and target key. */
export interface WrittenBackTarget {
  /** Shopify's numeric product id the owner belongs to. */
  productId: string;
  ownerId: string;
  attribute: string;
  /** The push state's target key (`seo.title`, `tags`, `metafield:$app:catalog.material`). */
  target: string;
}

/**
 * A written-back value that disagrees: `differs` (Shopify no longer holds what the connector
 * wrote: a merchant's edit nobody recorded) or `withdrawn` (the catalog no longer approves it,
 * and the review watch has not queued its retraction).
 */
export interface WrittenBackValue extends WrittenBackTarget {
  disagreement: 'differs' | 'withdrawn';
  /** The record the value came from, when the map has it. */
  skuId: string | null;
  /** `differs`: the catalog's value; `withdrawn`: what a retract would put back (null: removed). */
  expected: string | string[] | null;
  /** The target's value in Shopify now. */
  found: string | string[] | null;
}

/** What came of a repair of one written-back value. */
export interface WrittenBackRepair {
  outcome: 'retracted' | 'accepted' | 'already-repaired' | 'failed';
  reason?: string;
}

/** What the write-back provides: the comparison and the two repairs. */
export interface WrittenBackSource {
  /** The shop's written-back values that disagree, given every catalog record by skuId. */
  compare(shop: string, records: ReadonlyMap<string, ProductRecord>): Promise<WrittenBackValue[]>;
  /** Takes the value out of Shopify (the merchant's earlier value restored, or none). */
  retract(shop: string, target: WrittenBackTarget): Promise<WrittenBackRepair>;
  /** Keeps the merchant's value: the target becomes the merchant's, as a recorded edit would. */
  accept(shop: string, target: WrittenBackTarget): Promise<WrittenBackRepair>;
}

/**
 * Why: the drift report compares written-back values and repairs them, but the write-back is its
 * peer (same layer), so it cannot import it: the write-back provides its comparison and repairs
 * here at boot, and the drift report asks through this registry. Without a provider (a test
 * module without the write-back) there is nothing written back to compare.
 */
@Injectable()
export class WrittenBackValues {
  private source: WrittenBackSource | null = null;

  /** The write-back plugs in (once, at module init). */
  provide(source: WrittenBackSource): void {
    this.source = source;
  }

  compare(shop: string, records: ReadonlyMap<string, ProductRecord>): Promise<WrittenBackValue[]> {
    return this.source ? this.source.compare(shop, records) : Promise.resolve([]);
  }

  retract(shop: string, target: WrittenBackTarget): Promise<WrittenBackRepair> {
    return this.source ? this.source.retract(shop, target) : Promise.resolve(NONE);
  }

  accept(shop: string, target: WrittenBackTarget): Promise<WrittenBackRepair> {
    return this.source ? this.source.accept(shop, target) : Promise.resolve(NONE);
  }
}

const NONE: WrittenBackRepair = { outcome: 'failed', reason: 'the write-back is not running here' };

/** One `WrittenBackValues` shared by the write-back (provider) and the drift report (consumer). */
@Module({ providers: [WrittenBackValues], exports: [WrittenBackValues] })
export class WrittenBackValuesModule {}
