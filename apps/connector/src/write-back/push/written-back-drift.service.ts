import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { ProductRecord } from '#lib/catalog-contract';
import type { ResolvedWriteBackEntry } from '../../mapping/index.js';
import { ShopMappings } from '../../mapping/shop-mappings.service.js';
import { PermanentJobError } from '../../platform/failures/job-error.js';
import { ProductLocks } from '../../product-sync/product-locks.service.js';
import { SkuMapRepository } from '../../product-sync/sku-map/sku-map.repository.js';
import {
  type WrittenBackRepair,
  type WrittenBackSource,
  type WrittenBackTarget,
  type WrittenBackValue,
  WrittenBackValues,
} from '../../product-sync/written-back-values.service.js';
import { catalogValueOf } from '../decide/catalog-value.js';
import { currentOf, planWriteBack } from '../decide/plan-write-back.js';
import { emptyPlan, type TargetRef } from '../decide/write-back-plan.js';
import type { PushState, ShopifyProductState, WriteBackSubject } from '../decide/write-back-state.js';
import { MetafieldDefinitions } from '../definitions/metafield-definitions.service.js';
import { fetchWriteBackState } from '../shopify/fetch-write-back-state.js';
import { EnrichmentOutbox } from '../store/enrichment-outbox.repository.js';
import { WriteBackStates } from '../store/write-back-states.repository.js';
import { planRecords } from './push-records.js';
import { ShopGraphql } from './shop-graphql.service.js';
import { PushRetryError, WriteBackPusher } from './write-back-pusher.service.js';

/**
 * Why: the drift report's view of what the connector wrote to Shopify (issue 32), judged by the
 * push's own rules (`planWriteBack`), so the report and the push never disagree on what a
 * merchant edit or a withdrawn approval is. For each product holding a pushed value, its targets
 * are read from Shopify (one read per such product, its variants' too when a pushed value is on
 * one; not from the report's bulk read: docs/drift.md, "Drift report") and planned against the catalog records the
 * report read: a conflict is a merchant edit nobody recorded (`differs`: merchant edits are
 * reported even where an entry says `overwrite`), a planned retraction is a value the catalog no
 * longer approves (`withdrawn`, left out while the poll's push work for the product is pending:
 * the review watch has it). Repairs run under the product's lock: `retract` is the product's
 * push now (the planner retracts what the catalog rejected or cleared: the merchant's earlier
 * value is restored, a metafield without one deleted, the connector's tags removed); `accept`
 * records the merchant's edit as the sync would (the target becomes merchant-owned).
 */
@Injectable()
export class WrittenBackDrift implements WrittenBackSource, OnModuleInit {
  constructor(
    private readonly registry: WrittenBackValues,
    private readonly mappings: ShopMappings,
    private readonly definitions: MetafieldDefinitions,
    private readonly states: WriteBackStates,
    private readonly outbox: EnrichmentOutbox,
    private readonly skuMap: SkuMapRepository,
    private readonly graphql: ShopGraphql,
    private readonly locks: ProductLocks,
    private readonly pusher: WriteBackPusher,
  ) {}

  onModuleInit(): void {
    this.registry.provide(this);
  }

  async compare(shop: string, records: ReadonlyMap<string, ProductRecord>): Promise<WrittenBackValue[]> {
    const entries = this.entries(shop);
    if (entries.length === 0) return [];
    // Merchant edits are what the report looks for: never planned away by `overwrite`.
    const keep = entries.map((e) => ({ ...e, merchantEdits: 'keep' as const }));
    const found: WrittenBackValue[] = [];
    for (const productId of await this.states.pushedProducts(shop)) {
      const states = await this.states.forProduct(shop, productId);
      const read = await this.read(shop, productId, keep, states, records);
      if (!read) continue;
      const { subject, shopify, skuIdOf } = read;
      const plan = planWriteBack({ subject, entries: keep, states, shopify });
      const about = (ref: TargetRef) => ({
        productId,
        ownerId: ref.ownerId,
        attribute: ref.attribute,
        target: ref.key,
        skuId: skuIdOf(ref.ownerId),
        found: shownValue(ref, shopify),
      });
      for (const { ref } of plan.conflicts) {
        const skuId = skuIdOf(ref.ownerId);
        const catalog = skuId === null ? undefined : records.get(skuId);
        const now = catalog ? catalogValueOf(catalog, ref.attribute) : undefined;
        const expected = now && 'value' in now ? now.value : null;
        found.push({ ...about(ref), disagreement: 'differs', expected });
      }
      const retractions = plan.writes.filter((w) => w.purpose === 'retract');
      if (retractions.length === 0 || (await this.outbox.pendingWork(shop, productId)) !== null) continue;
      for (const write of retractions) {
        const state = states.find(
          (s) =>
            s.ownerId === write.ref.ownerId &&
            s.attribute === write.ref.attribute &&
            s.target === write.ref.key,
        );
        found.push({
          ...about(write.ref),
          disagreement: 'withdrawn',
          expected: state?.restore?.value ?? null,
        });
      }
    }
    return found;
  }

  async retract(shop: string, target: WrittenBackTarget): Promise<WrittenBackRepair> {
    const entries = this.entries(shop);
    return this.locked(shop, target.productId, async () => {
      const subject = { shop, productId: target.productId };
      try {
        await this.pusher.push(subject, entries, null);
      } catch (error) {
        if (error instanceof PushRetryError || error instanceof PermanentJobError)
          return { outcome: 'failed', reason: error.message };
        throw error;
      }
      const state = await this.stateOf(shop, target);
      if (state?.status === 'retracted') return { outcome: 'retracted' };
      return {
        outcome: 'failed',
        reason: `the push left ${target.target} of ${target.ownerId} ${state?.status ?? 'unknown'}: the catalog approves a value again, or a merchant owns it`,
      };
    });
  }

  async accept(shop: string, target: WrittenBackTarget): Promise<WrittenBackRepair> {
    const entries = this.entries(shop).map((e) => ({ ...e, merchantEdits: 'keep' as const }));
    return this.locked(shop, target.productId, async () => {
      const state = await this.stateOf(shop, target);
      if (state?.status === 'merchant-owned') return { outcome: 'accepted' };
      if (state?.status !== 'pushed')
        return { outcome: 'already-repaired', reason: `${target.target} holds no value the connector wrote` };
      const states = await this.states.forProduct(shop, target.productId);
      const read = await this.read(shop, target.productId, entries, states, new Map());
      if (!read) return { outcome: 'failed', reason: `product ${target.productId} is not in Shopify` };
      const plan = planWriteBack({ subject: read.subject, entries, states, shopify: read.shopify });
      const edit = plan.conflicts.find(
        (c) =>
          c.ref.ownerId === target.ownerId &&
          c.ref.attribute === target.attribute &&
          c.ref.key === target.target,
      );
      if (!edit)
        return { outcome: 'already-repaired', reason: 'Shopify holds the value the connector wrote again' };
      const { states: owned, history } = planRecords({
        ...emptyPlan(read.subject.productId),
        conflicts: [edit],
      });
      await this.states.save(shop, target.productId, { states: owned, history });
      return { outcome: 'accepted' };
    });
  }

  /** The mapping's write-back entries a definition does not stop (as the push uses them). */
  private entries(shop: string): ResolvedWriteBackEntry[] {
    const stopped = this.definitions.stopped(shop);
    return (this.mappings.mapping(shop)?.writeBack ?? []).filter((e) => !stopped.has(e.path));
  }

  /**
   * A product's write-back subject (records from `records`, by the sku map; none where absent)
   * and its targets in Shopify; null when the product is gone from Shopify or the map.
   */
  private async read(
    shop: string,
    productId: string,
    entries: readonly ResolvedWriteBackEntry[],
    states: readonly PushState[],
    records: ReadonlyMap<string, ProductRecord>,
  ): Promise<{
    subject: WriteBackSubject;
    shopify: ShopifyProductState;
    skuIdOf: (ownerId: string) => string | null;
  } | null> {
    const rows = (await this.skuMap.rowsOfProduct(shop, productId)).filter((r) => r.state === 'live');
    const own = rows.find((r) => r.shopifyVariantId === null);
    const gid = `gid://shopify/Product/${productId}`;
    const owners = states.map((s) => s.ownerId).filter((id, i, all) => id !== gid && all.indexOf(id) === i);
    // Variants are read only when a pushed state is on one: the plan below looks at no other
    // variant (a simple product's report costs one read, not two).
    const shopify = await fetchWriteBackState(
      this.graphql.forShop(shop),
      gid,
      owners.length > 0 ? entries : entries.filter((e) => e.level === 'product'),
      this.graphql.pacing(),
    );
    if (!shopify) return null;
    const skuIdOf = (ownerId: string): string | null => {
      if (ownerId === gid) return own?.skuId ?? null;
      const variantId = ownerId.slice(ownerId.lastIndexOf('/') + 1);
      const row = rows.find((r) => r.shopifyVariantId === variantId);
      // A simple product's one variant carries the simple product's record.
      return row?.skuId ?? (own?.kind === 'simple' ? own.skuId : null);
    };
    const recordOf = (ownerId: string) => {
      const skuId = skuIdOf(ownerId);
      return (skuId === null ? undefined : records.get(skuId)) ?? null;
    };
    const subject: WriteBackSubject = {
      productId: gid,
      record: recordOf(gid),
      variants: owners.map((variantId) => ({ variantId, record: recordOf(variantId) })),
    };
    return { subject, shopify, skuIdOf };
  }

  private async stateOf(shop: string, target: WrittenBackTarget) {
    return (await this.states.forProduct(shop, target.productId)).find(
      (s) => s.ownerId === target.ownerId && s.attribute === target.attribute && s.target === target.target,
    );
  }

  private locked(shop: string, productId: string, work: () => Promise<WrittenBackRepair>) {
    return this.locks.withLock({ shop, productId }, work, async () => ({
      outcome: 'failed' as const,
      reason: `product ${productId} is being synced or pushed; try again`,
    }));
  }
}

/** A target's value in Shopify now, as the operator reads it (the connector's tags: the list). */
function shownValue(ref: TargetRef, shopify: ShopifyProductState): string | string[] | null {
  if (ref.target.kind === 'tags') return shopify.tags;
  const current = currentOf(ref, shopify).comparable;
  return 'value' in current && typeof current.value === 'string' ? current.value : null;
}
