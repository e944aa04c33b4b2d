import { toGid } from '../common/gid.js';
import { restTime } from '../common/shop-time.js';
import type { CollectionRecord, CollectRecord } from './collection.store.js';

/**
 * A collection in the shape of the REST `CustomCollection` / `SmartCollection` resources
 * (https://shopify.dev/docs/api/admin-rest/latest/resources/customcollection and
 * .../smartcollection, read 2026-11-26), which is also the body of `collections/create` and
 * `collections/update`. Times carry the shop's offset, as product payloads do.
 */
export function collectionPayload(collection: CollectionRecord, timeZone: string): Record<string, unknown> {
  const payload: Record<string, unknown> = {
    id: collection.id,
    handle: collection.handle,
    title: collection.title,
    updated_at: restTime(collection.updatedAt, timeZone),
    body_html: collection.bodyHtml,
    published_at: collection.publishedAt === null ? null : restTime(collection.publishedAt, timeZone),
    sort_order: collection.sortOrder,
    template_suffix: collection.templateSuffix,
    published_scope: collection.publishedScope,
    admin_graphql_api_id: toGid('Collection', collection.id),
  };
  if (collection.kind === 'smart') {
    payload.disjunctive = collection.disjunctive;
    payload.rules = collection.rules.map((rule) => ({ ...rule }));
  }
  return payload;
}

/** The body of `collections/delete`: the id, the scope and the gid of what is gone. */
export function deletedCollectionPayload(collection: CollectionRecord): Record<string, unknown> {
  return {
    id: collection.id,
    published_scope: collection.publishedScope,
    admin_graphql_api_id: toGid('Collection', collection.id),
  };
}

/** A REST `Collect`: one product in one custom collection. */
export function collectPayload(
  collection: CollectionRecord,
  collect: CollectRecord,
  timeZone: string,
): Record<string, unknown> {
  return {
    id: collect.id,
    collection_id: collection.id,
    product_id: collect.productId,
    created_at: restTime(collect.createdAt, timeZone),
    updated_at: restTime(collect.updatedAt, timeZone),
    position: collect.position,
    sort_value: String(collect.position).padStart(10, '0'),
  };
}
