/**
 * Which image each variant has of its own, read only when variants may get their own gallery
 * (`variantGalleries: 'own-image'`). A variant holds at most one media ("Currently the array is
 * limited to only one media object of type image", https://shopify.dev/changelog/new-variant-media-editing-methods-and-mime-type-field),
 * so `first: 1`. 200 variants (the catalog's limit per parent) cost about 800 points.
 */
export const VARIANT_MEDIA_QUERY = /* GraphQL */ `
  query VariantMedia($id: ID!) {
    product(id: $id) {
      id
      variants(first: 200, sortKey: POSITION) {
        nodes {
          id
          media(first: 1) {
            nodes {
              id
            }
          }
        }
      }
    }
  }
`;
