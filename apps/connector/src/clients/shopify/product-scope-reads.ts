import {
  COLLECTION_ID_BY_HANDLE_QUERY,
  PRODUCT_SCOPE_FACTS_QUERY,
} from './documents/product-scope.documents.js';
import type { ShopAdminClient } from './shop-admin.client.js';

/** What a mapping's scope asks beyond the canonical read (each part read only when asked). */
export interface ScopeFactsAsked {
  collections: boolean;
  category: boolean;
  metafield: { namespace: string; key: string } | null;
}

/** The product's scope facts as read: its collections (the first 250), category and metafield value. */
export interface ScopeFactsRead {
  collections: Array<{ id: string; handle: string }>;
  categoryId: string | null;
  metafieldValue: string | null;
}

interface FactsAnswer {
  product: {
    collections?: { nodes: Array<{ id: string; handle: string }> };
    category?: { id: string } | null;
    metafield?: { value: string } | null;
  } | null;
}

/**
 * Why: the one place `PRODUCT_SCOPE_FACTS_QUERY` runs (the sync's scope gate): the facts the
 * scope names, about 255 points with collections, 3 without.
 */
export async function readScopeFacts(
  admin: Pick<ShopAdminClient, 'request'>,
  productGid: string,
  asked: ScopeFactsAsked,
): Promise<ScopeFactsRead> {
  const answer = await admin.request<FactsAnswer>(
    PRODUCT_SCOPE_FACTS_QUERY,
    {
      id: productGid,
      withCollections: asked.collections,
      withCategory: asked.category,
      withMetafield: asked.metafield !== null,
      namespace: asked.metafield?.namespace ?? null,
      key: asked.metafield?.key ?? '',
    },
    asked.collections ? 255 : 3,
  );
  return {
    collections: answer.product?.collections?.nodes ?? [],
    categoryId: answer.product?.category?.id ?? null,
    metafieldValue: answer.product?.metafield?.value ?? null,
  };
}

/** Why: the one place `COLLECTION_ID_BY_HANDLE_QUERY` runs: a collection's gid from its handle, null when none has it. */
export async function collectionIdByHandle(
  admin: Pick<ShopAdminClient, 'request'>,
  handle: string,
): Promise<string | null> {
  const answer = await admin.request<{ collectionByIdentifier: { id: string } | null }>(
    COLLECTION_ID_BY_HANDLE_QUERY,
    { handle },
    1,
  );
  return answer.collectionByIdentifier?.id ?? null;
}
