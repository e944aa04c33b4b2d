// Every Admin GraphQL document of the write-back (API 2026-07), in one place.
// `write-back.documents.spec.ts` validates each against Shopify's real 2026-07 schema.

/** The selection of a metafield the write-back reads: its value and `compareDigest`. */
const METAFIELD_FIELDS = /* GraphQL */ `
  id
  namespace
  key
  type
  value
  compareDigest
`;

/**
 * The product's write-back targets as they stand: fields, SEO, tags, and the mapped product
 * metafields (`keys` as `namespace.key`, `$app` namespaces allowed; `withMetafields` false when
 * the mapping has none at product level). Requested cost: about 5 + the number of keys.
 */
export const WRITE_BACK_PRODUCT_QUERY = /* GraphQL */ `
  query WriteBackProduct($id: ID!, $keys: [String!]!, $keyCount: Int!, $withMetafields: Boolean!) {
    product(id: $id) {
      id
      title
      descriptionHtml
      tags
      seo {
        title
        description
      }
      metafields(first: $keyCount, keys: $keys) @include(if: $withMetafields) {
        nodes {
          ${METAFIELD_FIELDS}
        }
      }
    }
  }
`;

/**
 * One page of the product's variants with their mapped metafields (variant-level entries).
 * The catalog takes at most 200 variants per parent: two pages of 100 at most.
 */
export const WRITE_BACK_VARIANTS_QUERY = /* GraphQL */ `
  query WriteBackVariants($id: ID!, $keys: [String!]!, $keyCount: Int!, $first: Int!, $after: String) {
    product(id: $id) {
      id
      variants(first: $first, after: $after) {
        nodes {
          id
          metafields(first: $keyCount, keys: $keys) {
            nodes {
              ${METAFIELD_FIELDS}
            }
          }
        }
        pageInfo {
          hasNextPage
          endCursor
        }
      }
    }
  }
`;

/** `productUpdate` of the product fields the write-back targets: title, descriptionHtml, seo. */
export const WRITE_BACK_PRODUCT_UPDATE = /* GraphQL */ `
  mutation WriteBackProductUpdate($product: ProductUpdateInput!) {
    productUpdate(product: $product) {
      product {
        id
        title
        descriptionHtml
        seo {
          title
          description
        }
      }
      userErrors {
        field
        message
      }
    }
  }
`;

/** `tagsAdd`: adds tags, never replacing the merchant's. */
export const WRITE_BACK_TAGS_ADD = /* GraphQL */ `
  mutation WriteBackTagsAdd($id: ID!, $tags: [String!]!) {
    tagsAdd(id: $id, tags: $tags) {
      node {
        id
      }
      userErrors {
        field
        message
      }
    }
  }
`;

/** `tagsRemove`: removes only the tags given (those the connector added). */
export const WRITE_BACK_TAGS_REMOVE = /* GraphQL */ `
  mutation WriteBackTagsRemove($id: ID!, $tags: [String!]!) {
    tagsRemove(id: $id, tags: $tags) {
      node {
        id
      }
      userErrors {
        field
        message
      }
    }
  }
`;

/** `metafieldsSet`: at most 25 per call, atomic, with `compareDigest` (null: must not exist yet). */
export const WRITE_BACK_METAFIELDS_SET = /* GraphQL */ `
  mutation WriteBackMetafieldsSet($metafields: [MetafieldsSetInput!]!) {
    metafieldsSet(metafields: $metafields) {
      metafields {
        ${METAFIELD_FIELDS}
      }
      userErrors {
        field
        message
        code
        elementIndex
      }
    }
  }
`;

/** `metafieldsDelete`: a metafield that no longer exists is not an error (null in the answer). */
export const WRITE_BACK_METAFIELDS_DELETE = /* GraphQL */ `
  mutation WriteBackMetafieldsDelete($metafields: [MetafieldIdentifierInput!]!) {
    metafieldsDelete(metafields: $metafields) {
      deletedMetafields {
        ownerId
        namespace
        key
      }
      userErrors {
        field
        message
      }
    }
  }
`;

/** Every document of the write-back, by operation name (the schema test walks this list). */
export const WRITE_BACK_DOCUMENTS: Readonly<Record<string, string>> = {
  WriteBackProduct: WRITE_BACK_PRODUCT_QUERY,
  WriteBackVariants: WRITE_BACK_VARIANTS_QUERY,
  WriteBackProductUpdate: WRITE_BACK_PRODUCT_UPDATE,
  WriteBackTagsAdd: WRITE_BACK_TAGS_ADD,
  WriteBackTagsRemove: WRITE_BACK_TAGS_REMOVE,
  WriteBackMetafieldsSet: WRITE_BACK_METAFIELDS_SET,
  WriteBackMetafieldsDelete: WRITE_BACK_METAFIELDS_DELETE,
};
