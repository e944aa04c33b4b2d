import type { WriteBackRoot } from '../../clients/shopify/write-back-calls.js';
import { MetafieldTypes } from '../../mapping/index.js';
import type { PlannedWrite, WriteOp } from '../decide/write-back-plan.js';

/**
 * One Admin GraphQL call, and the planned writes it carries (indexes into the writes given): the
 * mutation named by its root field (`runWriteBackMutation` sends its document).
 */
export interface WriteBackMutation {
  root: WriteBackRoot;
  variables: Record<string, unknown>;
  writes: number[];
}

/**
 * Turns the planned writes of one product into as few Admin GraphQL calls as its limits allow:
 * one `productUpdate` for every field (title, descriptionHtml, SEO), one `tagsRemove` and one
 * `tagsAdd` with every tags entry's changes, `metafieldsSet` in batches of at most 25 (with
 * each `compareDigest`), and `metafieldsDelete` in batches of 25. A call fails or succeeds for
 * all the writes it carries (`metafieldsSet` is atomic).
 */
export function buildMutations(productId: string, writes: readonly PlannedWrite[]): WriteBackMutation[] {
  const mutations: WriteBackMutation[] = [];
  const fields = indexed(writes, 'field');
  if (fields.length > 0) {
    const product: Record<string, unknown> = { id: productId };
    const seo: Record<string, string | null> = {};
    for (const [, op] of fields) {
      if (op.field === 'seo.title') seo.title = op.value;
      else if (op.field === 'seo.description') seo.description = op.value;
      else product[op.field] = op.value;
    }
    if (Object.keys(seo).length > 0) product.seo = seo;
    mutations.push({
      root: 'productUpdate',
      variables: { product },
      writes: fields.map(([i]) => i),
    });
  }
  const tags = indexed(writes, 'tags');
  for (const [root, pick] of [
    ['tagsRemove', (op: Extract<WriteOp, { kind: 'tags' }>) => op.remove],
    ['tagsAdd', (op: Extract<WriteOp, { kind: 'tags' }>) => op.add],
  ] as const) {
    const carrying = tags.filter(([, op]) => pick(op).length > 0);
    const list = uniqueTags(carrying.flatMap(([, op]) => pick(op)));
    if (list.length > 0)
      mutations.push({
        root,
        variables: { id: productId, tags: list },
        writes: carrying.map(([i]) => i),
      });
  }
  for (const batch of batches(indexed(writes, 'metafield-set'))) {
    mutations.push({
      root: 'metafieldsSet',
      variables: {
        metafields: batch.map(([, op]) => ({
          ownerId: op.ownerId,
          namespace: op.namespace,
          key: op.key,
          type: op.type,
          value: op.value,
          compareDigest: op.compareDigest,
        })),
      },
      writes: batch.map(([i]) => i),
    });
  }
  for (const batch of batches(indexed(writes, 'metafield-delete'))) {
    mutations.push({
      root: 'metafieldsDelete',
      variables: {
        metafields: batch.map(([, op]) => ({ ownerId: op.ownerId, namespace: op.namespace, key: op.key })),
      },
      writes: batch.map(([i]) => i),
    });
  }
  return mutations;
}

function indexed<K extends WriteOp['kind']>(
  writes: readonly PlannedWrite[],
  kind: K,
): Array<[number, Extract<WriteOp, { kind: K }>]> {
  return writes.flatMap((w, i) => (w.op.kind === kind ? [[i, w.op as Extract<WriteOp, { kind: K }>]] : []));
}

function batches<T>(items: T[], size = MetafieldTypes.METAFIELDS_SET_MAX): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** One of each tag, ignoring case (the first spelling wins), as Shopify keeps them. */
function uniqueTags(tags: string[]): string[] {
  const byLower = new Map<string, string>();
  for (const tag of tags) if (!byLower.has(tag.toLowerCase())) byLower.set(tag.toLowerCase(), tag);
  return [...byLower.values()];
}
