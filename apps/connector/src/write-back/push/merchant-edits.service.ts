import { Injectable } from '@nestjs/common';
import { ShopMappings } from '../../mapping/shop-mappings.service.js';
import type { AfterSyncListener, SyncedProduct } from '../../product-sync/sync-events.js';
import { planWriteBack } from '../decide/plan-write-back.js';
import { fetchWriteBackState } from '../shopify/fetch-write-back-state.js';
import { WriteBackStates } from '../store/write-back-states.repository.js';
import { planRecords } from './push-records.js';
import { ShopGraphql } from './shop-graphql.service.js';

/**
 * Merchant edits win (an after-sync listener, listed in connector.module.ts): after each sync of a product the connector pushed to (still inside the
 * product's lock), its write-back targets are read from Shopify and compared with what was
 * pushed. A target whose value is no longer the connector's was edited by a merchant: it
 * becomes merchant-owned (the conflict is recorded) and later values are not pushed over it.
 * An intent found to have landed is settled. The targets of a variant the sync found removed
 * are left out (gone with their owner, not edited). No catalog call: the decision is made without
 * catalog records (`planWriteBack` with none decides conflicts and intents only).
 */
@Injectable()
export class MerchantEdits implements AfterSyncListener {
  readonly afterSyncName = 'enrichment: merchant edits';

  constructor(
    private readonly mappings: ShopMappings,
    private readonly states: WriteBackStates,
    private readonly graphql: ShopGraphql,
  ) {}

  /** Records the merchant's edits of pushed targets of the synced product. */
  async afterSync(event: SyncedProduct): Promise<void> {
    if (event.outcome !== 'synced') return;
    const entries = this.mappings.mapping(event.shop)?.writeBack ?? [];
    if (entries.length === 0) return;
    const productId = `gid://shopify/Product/${event.productId}`;
    // A variant the merchant removed took its metafields with it: that is no edit of them.
    const removed = (ownerId: string) =>
      ownerId !== productId &&
      event.product !== null &&
      event.product.variants.length >= event.product.variantsCount &&
      !event.product.variants.some((v) => v.id === ownerId);
    const states = (await this.states.forProduct(event.shop, event.productId)).filter(
      (s) => !removed(s.ownerId),
    );
    if (!states.some((s) => s.status === 'pushed' || s.intent)) return;
    const shopify = await fetchWriteBackState(
      this.graphql.forShop(event.shop),
      productId,
      entries,
      this.graphql.pacing(),
    );
    if (!shopify) return;
    const owners = [...new Set(states.map((s) => s.ownerId).filter((id) => id !== productId))];
    const plan = planWriteBack({
      subject: {
        productId,
        record: null,
        variants: owners.map((variantId) => ({ variantId, record: null })),
      },
      entries,
      states,
      shopify,
    });
    if (plan.conflicts.length === 0 && plan.settled.length === 0) return;
    const { states: changed, history } = planRecords(plan);
    await this.states.save(event.shop, event.productId, { states: changed, history }, event.jobId);
  }
}
