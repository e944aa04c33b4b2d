import type { ResolvedWriteBackEntry } from '../../mapping/index.js';
import type { ShopifyProductState } from '../decide/write-back-state.js';
import type { AdminGraphql, GraphqlResponse } from './admin-graphql.js';
import {
  nextVariantCursor,
  readWriteBackState,
  WriteBackReadError,
  writeBackReadVariables,
} from './read-write-back-state.js';
import { WRITE_BACK_PRODUCT_QUERY, WRITE_BACK_VARIANTS_QUERY } from './write-back.documents.js';

/**
 * Reads a product's write-back targets through Admin GraphQL: the product read, then the
 * variant pages when variant entries exist. Null when the product does not exist. Throttling and
 * GraphQL errors are thrown as `WriteBackReadError` (the job retries them).
 */
export async function fetchWriteBackState(
  graphql: AdminGraphql,
  productId: string,
  entries: readonly ResolvedWriteBackEntry[],
): Promise<ShopifyProductState | null> {
  const variables = writeBackReadVariables(productId, entries);
  const product = dataOf(
    await graphql(WRITE_BACK_PRODUCT_QUERY, { ...variables.product }),
    'WriteBackProduct',
  );
  const pages: unknown[] = [];
  if (variables.variants && (product as { product?: unknown }).product) {
    let after: string | null = null;
    do {
      const page = dataOf(
        await graphql(WRITE_BACK_VARIANTS_QUERY, { ...variables.variants, after }),
        'WriteBackVariants',
      );
      pages.push(page);
      after = nextVariantCursor(page);
    } while (after !== null);
  }
  return readWriteBackState(product, pages);
}

function dataOf(response: GraphqlResponse, operation: string): unknown {
  if (response.errors && response.errors.length > 0) {
    const codes = response.errors.map(
      (e) => `${e.message}${e.extensions?.code ? ` (${e.extensions.code})` : ''}`,
    );
    throw new WriteBackReadError(`${operation}: ${codes.join('; ')}`);
  }
  return response.data;
}
