import type {
  WriteBackMetafieldNode,
  WriteBackMutationData,
  WriteBackMutationPayload,
} from '../../clients/shopify/write-back-calls.js';
import type { PlannedWrite } from '../decide/write-back-plan.js';
import { namespaceMatches } from '../decide/write-back-state.js';
import { valueHash } from '../values/value-hash.js';
import type { GraphqlResponse } from './admin-graphql.js';
import type { WriteBackMutation } from './build-mutations.js';

/**
 * Why: Shopify may store a value other than the one sent (a normalised one). The push
 * state must hash what Shopify holds, or the next comparison takes Shopify's own rewrite for a
 * merchant's edit, records a false conflict and gives the target up for good. So a write that
 * succeeded keeps the hash of the value the mutation answered (`productUpdate`'s product, the
 * `metafieldsSet` metafields); where the answer shows none (tags, deletes, retractions, an
 * answer without the value), the planned hash stays.
 */
export function answeredWrite(
  write: PlannedWrite,
  mutation: WriteBackMutation,
  position: number,
  response: GraphqlResponse & { data?: WriteBackMutationData | null },
): PlannedWrite {
  if (write.purpose !== 'push' || write.next.valueHash === null) return write;
  const payload = response.data?.[mutation.root];
  const hash = payload ? hashOf(write, payload, position) : undefined;
  return hash === undefined || hash === write.next.valueHash
    ? write
    : { ...write, next: { ...write.next, valueHash: hash } };
}

function hashOf(
  write: PlannedWrite,
  payload: WriteBackMutationPayload,
  position: number,
): string | undefined {
  const { op } = write;
  if (op.kind === 'field') {
    const product = payload.product;
    if (!product) return undefined;
    const value =
      op.field === 'seo.title'
        ? product.seo?.title
        : op.field === 'seo.description'
          ? product.seo?.description
          : product[op.field];
    if (value !== null && typeof value !== 'string') return undefined;
    return valueHash({ kind: 'field', value });
  }
  if (op.kind === 'metafield-set') {
    const answered = payload.metafields ?? [];
    const fits = (m: Partial<WriteBackMetafieldNode> | undefined) =>
      m !== undefined &&
      m.key === op.key &&
      typeof m.namespace === 'string' &&
      namespaceMatches(op.namespace, m.namespace);
    // In the order sent; else the one answer for this namespace and key.
    const same = answered.filter(fits);
    const found = fits(answered[position]) ? answered[position] : same.length === 1 ? same[0] : undefined;
    if (!found || typeof found.value !== 'string') return undefined;
    const type = typeof found.type === 'string' ? found.type : op.type;
    return valueHash({ kind: 'metafield', type, value: found.value });
  }
  return undefined;
}
