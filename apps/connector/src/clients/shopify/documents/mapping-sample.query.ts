/** Products per page of the mapping draft's sample (`MAPPING_SAMPLE_QUERY`). */
export const MAPPING_SAMPLE_PAGE_SIZE = 100;

/**
 * A page of products as `connector mapping init` reads them (issue 43): what a starting mapping is
 * drafted from, no more: product type, vendor, options and their values, the standard category.
 * Requested cost: first x (1 + options 1 + category 1) + 2, 302 for a page of 100.
 */
export const MAPPING_SAMPLE_QUERY = /* GraphQL */ `
  query ConnectorMappingSample($first: Int!, $after: String) {
    products(first: $first, after: $after, sortKey: ID) {
      nodes {
        legacyResourceId
        productType
        vendor
        hasOnlyDefaultVariant
        options {
          name
          values
        }
        category {
          id
          fullName
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`;
