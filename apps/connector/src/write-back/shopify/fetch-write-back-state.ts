import {
  WRITE_BACK_PRODUCT_QUERY,
  WRITE_BACK_VARIANTS_QUERY,
} from '../../clients/shopify/documents/write-back.documents.js';
import type { ResolvedWriteBackEntry } from '../../mapping/index.js';
import type { ShopifyProductState } from '../decide/write-back-state.js';
import {
  type AdminGraphql,
  type GraphqlResponse,
  type PacingOptions,
  pacedRequest,
  type QueryCost,
} from './admin-graphql.js';
import {
  nextVariantCursor,
  readWriteBackState,
  WriteBackReadError,
  writeBackReadVariables,
} from './read-write-back-state.js';

/** How a read is paced: `costs.last` carries the bucket's state in and out (the calls that follow pace by it). */
export interface ReadPacing extends PacingOptions {
  costs?: { last?: QueryCost };
  /** Points each read keeps for the call that follows at once (the push's read right before its write). */
  reserve?: number;
}

/**
 * Reads a product's write-back targets through Admin GraphQL: the product read, then the
 * variant pages when variant entries exist, each paced and waiting out `THROTTLED` (without
 * `pacing`, a throttled read fails at once). Null when the product does not exist. GraphQL
 * errors, and throttling past the retries, are thrown as `WriteBackReadError` (the job retries).
 */
export async function fetchWriteBackState(
  graphql: AdminGraphql,
  productId: string,
  entries: readonly ResolvedWriteBackEntry[],
  pacing: ReadPacing = { sleep: async () => {}, throttleRetries: 0 },
): Promise<ShopifyProductState | null> {
  const variables = writeBackReadVariables(productId, entries);
  const { costs, reserve, ...paced } = pacing;
  let lastCost: QueryCost | undefined = costs?.last;
  const read = async (query: string, vars: Record<string, unknown>, cost: number, operation: string) => {
    const answer = await pacedRequest(graphql, query, vars, {
      ...paced,
      cost,
      ...(reserve ? { reserve } : {}),
      ...(lastCost ? { lastCost } : {}),
    });
    lastCost = answer.lastCost;
    if (costs && lastCost) costs.last = lastCost;
    return dataOf(answer.response, operation);
  };
  const product = await read(
    WRITE_BACK_PRODUCT_QUERY,
    { ...variables.product },
    5 + variables.product.keyCount,
    'WriteBackProduct',
  );
  const pages: unknown[] = [];
  const variantRead = variables.variants;
  if (variantRead && (product as { product?: unknown }).product) {
    let after: string | null = null;
    do {
      const page = await read(
        WRITE_BACK_VARIANTS_QUERY,
        { ...variantRead, after },
        3 + variantRead.first * (3 + variantRead.keyCount),
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
