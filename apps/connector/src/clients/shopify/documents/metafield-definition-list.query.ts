/** Most definitions listed per owner type (`METAFIELD_DEFINITION_LIST_QUERY`). */
export const METAFIELD_DEFINITION_LIST_SIZE = 100;

/**
 * The shop's metafield definitions of one owner type (`PRODUCT`, `PRODUCTVARIANT`), the first
 * 100: what `connector mapping init` offers as `metafields.<namespace>.<key>` sources.
 * Requested cost: 2 + 100 x (1 + type 1) = 202.
 */
export const METAFIELD_DEFINITION_LIST_QUERY = /* GraphQL */ `
  query ConnectorMetafieldDefinitionList($ownerType: MetafieldOwnerType!, $first: Int!) {
    metafieldDefinitions(first: $first, ownerType: $ownerType) {
      nodes {
        namespace
        key
        name
        type {
          name
        }
      }
    }
  }
`;
