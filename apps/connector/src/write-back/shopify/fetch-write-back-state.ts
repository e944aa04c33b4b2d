import {
  readWriteBackProduct,
  readWriteBackVariants,
  type SendWriteBackCall,
} from '../../clients/shopify/write-back-calls.js';
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
  const send: SendWriteBackCall<GraphqlResponse> = async (document, vars, cost) => {
    const answer = await pacedRequest(graphql, document, vars, {
      ...paced,
      cost,
      ...(reserve ? { reserve } : {}),
      ...(lastCost ? { lastCost } : {}),
    });
    lastCost = answer.lastCost;
    if (costs && lastCost) costs.last = lastCost;
    return answer.response;
  };
  const product = dataOf(await readWriteBackProduct(send, variables.product), 'WriteBackProduct');
  const pages: unknown[] = [];
  const variantRead = variables.variants;
  if (variantRead && (product as { product?: unknown }).product) {
    let after: string | null = null;
    do {
      const page = dataOf(await readWriteBackVariants(send, { ...variantRead, after }), 'WriteBackVariants');
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
