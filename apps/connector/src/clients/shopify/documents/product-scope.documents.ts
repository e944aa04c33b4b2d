/**
 * What a mapping's `scope` looks at beyond the canonical read, asked only when the scope names
 * collections, categories or a metafield (`@include`): the collections holding the product (the
 * first 250; a product in more is judged on those), its standard category, one metafield.
 * Requested cost: about 255 points with collections, 3 without.
 */
export const PRODUCT_SCOPE_FACTS_QUERY = /* GraphQL */ `
  query ConnectorProductScopeFacts(
    $id: ID!
    $withCollections: Boolean!
    $withCategory: Boolean!
    $withMetafield: Boolean!
    $namespace: String
    $key: String!
  ) {
    product(id: $id) {
      collections(first: 250) @include(if: $withCollections) {
        nodes {
          id
          handle
        }
      }
      category @include(if: $withCategory) {
        id
      }
      metafield(namespace: $namespace, key: $key) @include(if: $withMetafield) {
        value
      }
    }
  }
`;

/** A collection's id from its handle (`scope.collections` may name handles). Cost: 1. */
export const COLLECTION_ID_BY_HANDLE_QUERY = /* GraphQL */ `
  query ConnectorCollectionByHandle($handle: String!) {
    collectionByIdentifier(identifier: { handle: $handle }) {
      id
    }
  }
`;
