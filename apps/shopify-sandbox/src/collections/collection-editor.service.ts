import { Inject, Injectable } from '@nestjs/common';
import { Clock } from '#lib/clock';
import type { ShopifySandboxConfig } from '../config/shopify-sandbox.config.js';
import { ShopifySandboxError } from '../http/shopify-sandbox.error.js';
import { slugify } from '../products/product.model.js';
import { SANDBOX_CONFIG } from '../shopify-sandbox.tokens.js';
import type { Shop } from '../shops/shop.js';
import { WebhookDeliveryService } from '../webhooks/webhook-delivery.service.js';
import type { CollectionKind, CollectionRecord, CollectRecord } from './collection.store.js';
import type { CollectionInput } from './collection-input.js';
import { collectionPayload, deletedCollectionPayload } from './collection-payload.js';

/** "By default, a store can have up to 5000 smart collections" (REST SmartCollection, read 2026-11-26). */
export const MAX_SMART_COLLECTIONS = 5000;

/**
 * Every change to collections, as the merchant makes it: stores it and sends the
 * `collections/*` webhook. Adding or removing a product changes the collection (its
 * `updated_at`, a `collections/update`) and never the product: no `products/update`, the
 * product's `updated_at` unchanged.
 */
@Injectable()
export class CollectionEditor {
  constructor(
    private readonly clock: Clock,
    private readonly webhooks: WebhookDeliveryService,
    @Inject(SANDBOX_CONFIG) private readonly config: ShopifySandboxConfig,
  ) {}

  create(shop: Shop, kind: CollectionKind, input: CollectionInput): CollectionRecord {
    if (
      kind === 'smart' &&
      shop.collections.list().filter((c) => c.kind === 'smart').length >= MAX_SMART_COLLECTIONS
    ) {
      throw ShopifySandboxError.unprocessable({
        base: [`Smart collections limit of ${MAX_SMART_COLLECTIONS} reached`],
      });
    }
    this.checkProducts(shop, input.productIds ?? []);
    const now = this.clock.now();
    const title = input.title ?? '';
    const collection: CollectionRecord = {
      id: shop.ids.take(),
      kind,
      title,
      handle: shop.collections.uniqueHandle(slugify(input.handle ?? title) || 'collection'),
      bodyHtml: input.bodyHtml ?? null,
      sortOrder: input.sortOrder ?? (kind === 'custom' ? 'manual' : 'best-selling'),
      templateSuffix: input.templateSuffix ?? null,
      publishedAt: input.published === false ? null : now,
      publishedScope: input.publishedScope ?? 'web',
      createdAt: now,
      updatedAt: now,
      rules: input.rules ?? [],
      disjunctive: input.disjunctive ?? false,
      collects: [],
    };
    for (const productId of new Set(input.productIds ?? []))
      collection.collects.push(this.newCollect(shop, collection, productId, now));
    shop.collections.insert(collection);
    this.notify(shop, 'COLLECTIONS_CREATE', collection, now);
    return collection;
  }

  update(shop: Shop, collection: CollectionRecord, input: CollectionInput): CollectionRecord {
    this.checkProducts(shop, input.productIds ?? []);
    const now = this.clock.now();
    if (input.title !== undefined) collection.title = input.title;
    if (input.handle !== undefined)
      collection.handle = shop.collections.uniqueHandle(
        slugify(input.handle) || collection.handle,
        collection.id,
      );
    if (input.bodyHtml !== undefined) collection.bodyHtml = input.bodyHtml;
    if (input.sortOrder !== undefined) collection.sortOrder = input.sortOrder;
    if (input.templateSuffix !== undefined) collection.templateSuffix = input.templateSuffix;
    if (input.published !== undefined)
      collection.publishedAt = input.published ? (collection.publishedAt ?? now) : null;
    if (input.publishedScope !== undefined) collection.publishedScope = input.publishedScope;
    if (input.rules !== undefined) collection.rules = input.rules;
    if (input.disjunctive !== undefined) collection.disjunctive = input.disjunctive;
    for (const productId of new Set(input.productIds ?? [])) {
      if (!collection.collects.some((c) => c.productId === productId))
        collection.collects.push(this.newCollect(shop, collection, productId, now));
    }
    this.save(shop, collection, now);
    return collection;
  }

  delete(shop: Shop, collection: CollectionRecord): void {
    const now = this.clock.now();
    shop.collections.remove(collection.id, now);
    this.webhooks.publishResource(shop, 'COLLECTIONS_DELETE', now, () =>
      deletedCollectionPayload(collection),
    );
  }

  /** Puts a product in a custom collection (REST `POST collects.json`); 422 as Shopify answers. */
  addProduct(shop: Shop, collection: CollectionRecord, productId: number): CollectRecord {
    if (collection.kind === 'smart') {
      throw ShopifySandboxError.unprocessable({
        collection_id: ['cannot add products to a smart collection'],
      });
    }
    this.checkProducts(shop, [productId]);
    if (collection.collects.some((c) => c.productId === productId)) {
      throw ShopifySandboxError.unprocessable({ product_id: ['already exists in this collection'] });
    }
    const now = this.clock.now();
    const collect = this.newCollect(shop, collection, productId, now);
    collection.collects.push(collect);
    this.save(shop, collection, now);
    return collect;
  }

  /** Takes a product out of its custom collection (REST `DELETE collects/{id}.json`). */
  removeCollect(shop: Shop, collection: CollectionRecord, collectId: number): void {
    collection.collects = collection.collects.filter((c) => c.id !== collectId);
    collection.collects.forEach((c, index) => {
      c.position = index + 1;
    });
    this.save(shop, collection, this.clock.now());
  }

  private save(shop: Shop, collection: CollectionRecord, now: number): void {
    shop.collections.save(collection, now);
    this.notify(shop, 'COLLECTIONS_UPDATE', collection, now);
  }

  private notify(shop: Shop, topic: string, collection: CollectionRecord, at: number): void {
    const snapshot = structuredClone(collection);
    this.webhooks.publishResource(shop, topic, at, () => collectionPayload(snapshot, this.config.timeZone));
  }

  private newCollect(
    shop: Shop,
    collection: CollectionRecord,
    productId: number,
    now: number,
  ): CollectRecord {
    return {
      id: shop.ids.take(),
      productId,
      position: collection.collects.length + 1,
      createdAt: now,
      updatedAt: now,
    };
  }

  private checkProducts(shop: Shop, productIds: number[]): void {
    if (productIds.some((id) => !shop.products.get(id))) {
      throw ShopifySandboxError.unprocessable({ product: ["can't be blank"] });
    }
  }
}
