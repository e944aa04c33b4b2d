import { MAPPING_SAMPLE_PAGE_SIZE, MAPPING_SAMPLE_QUERY } from './documents/mapping-sample.query.js';
import {
  METAFIELD_DEFINITION_LIST_QUERY,
  METAFIELD_DEFINITION_LIST_SIZE,
} from './documents/metafield-definition-list.query.js';
import type { ShopAdminClient } from './shop-admin.client.js';
import type { ProductPage } from './shopify-product-pages.js';

/** One product as the mapping draft reads it (`MAPPING_SAMPLE_QUERY`). */
export interface SampledProduct {
  productId: string;
  productType: string;
  vendor: string;
  /** Only Shopify's default variant (its option "Title" / "Default Title" is no real option). */
  simple: boolean;
  options: Array<{ name: string; values: string[] }>;
  /** Shopify's standard product category, null when it has none. */
  category: { id: string; fullName: string } | null;
}

/** A metafield definition of the shop, as the mapping draft offers it as a source. */
export interface ListedMetafieldDefinition {
  namespace: string;
  key: string;
  name: string;
  /** Shopify's type name: `single_line_text_field`, `list.single_line_text_field`, ... */
  type: string;
}

interface SampleNode {
  legacyResourceId: string;
  productType: string | null;
  vendor: string | null;
  hasOnlyDefaultVariant: boolean;
  options: Array<{ name: string; values: string[] }> | null;
  category: { id: string; fullName: string } | null;
}

/**
 * Why: the one place `MAPPING_SAMPLE_QUERY` runs: one page of products (by id, after `after`)
 * with what a starting mapping is drafted from; `first` at most 100 (302 points for 100).
 */
export async function readMappingSamplePage(
  admin: Pick<ShopAdminClient, 'request'>,
  after: string | null,
  first: number = MAPPING_SAMPLE_PAGE_SIZE,
): Promise<ProductPage<SampledProduct>> {
  const size = Math.max(1, Math.min(first, MAPPING_SAMPLE_PAGE_SIZE));
  const answer = await admin.request<{
    products: { nodes: SampleNode[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } };
  }>(MAPPING_SAMPLE_QUERY, { first: size, after }, size * 3 + 2);
  const { nodes, pageInfo } = answer.products;
  return {
    items: nodes.map((n) => ({
      productId: n.legacyResourceId,
      productType: n.productType ?? '',
      vendor: n.vendor ?? '',
      simple: n.hasOnlyDefaultVariant,
      options: n.options ?? [],
      category: n.category,
    })),
    next: pageInfo.hasNextPage ? pageInfo.endCursor : null,
  };
}

/**
 * Why: the one place `METAFIELD_DEFINITION_LIST_QUERY` runs: the shop's first 100 metafield
 * definitions of `ownerType` (`PRODUCT` or `PRODUCTVARIANT`), 202 points.
 */
export async function listMetafieldDefinitions(
  admin: Pick<ShopAdminClient, 'request'>,
  ownerType: 'PRODUCT' | 'PRODUCTVARIANT',
): Promise<ListedMetafieldDefinition[]> {
  const answer = await admin.request<{
    metafieldDefinitions: {
      nodes: Array<{ namespace: string; key: string; name: string; type: { name: string } }>;
    };
  }>(
    METAFIELD_DEFINITION_LIST_QUERY,
    { ownerType, first: METAFIELD_DEFINITION_LIST_SIZE },
    METAFIELD_DEFINITION_LIST_SIZE * 2 + 2,
  );
  return answer.metafieldDefinitions.nodes.map((d) => ({
    namespace: d.namespace,
    key: d.key,
    name: d.name,
    type: d.type.name,
  }));
}
