import { describe, expect, it } from 'vitest';
import type { PlannedWrite, WriteOp } from '../decide/write-back-plan.js';
import { valueHash } from '../values/value-hash.js';
import type { GraphqlResponse, QueryCost } from './admin-graphql.js';
import { pacedRequest, throttleDelayMs } from './admin-graphql.js';
import { buildMutations } from './build-mutations.js';
import { executeWriteBack } from './execute-write-back.js';

const PRODUCT = 'gid://shopify/Product/1';

function write(op: WriteOp, attribute = 'a'): PlannedWrite {
  return {
    ref: {
      productId: PRODUCT,
      ownerId: PRODUCT,
      attribute,
      target: { kind: 'tags' },
      key: 'tags',
      path: 'p',
    },
    purpose: 'push',
    op,
    next: { ownerId: PRODUCT, attribute, target: 'tags', status: 'pushed', valueHash: 'h' },
  };
}

const cost = (currentlyAvailable: number, requested = 10): QueryCost => ({
  requestedQueryCost: requested,
  actualQueryCost: 10,
  throttleStatus: { maximumAvailable: 1000, currentlyAvailable, restoreRate: 50 },
});
const ok = (root: string, available = 990): GraphqlResponse => ({
  data: { [root]: { userErrors: [] } },
  extensions: { cost: cost(available) },
});
const throttled = (available: number): GraphqlResponse => ({
  errors: [{ message: 'Throttled', extensions: { code: 'THROTTLED' } }],
  extensions: { cost: { ...cost(available), actualQueryCost: null } },
});

/** A scripted Admin GraphQL: answers in order, recording the calls and the waits. */
function scripted(answers: Array<GraphqlResponse | Error>) {
  const calls: string[] = [];
  const waits: number[] = [];
  return {
    calls,
    waits,
    graphql: async (query: string) => {
      calls.push(/mutation (\w+)/.exec(query)?.[1] ?? '?');
      const next = answers.shift();
      if (!next) throw new Error('no more answers');
      if (next instanceof Error) throw next;
      return next;
    },
    sleep: async (ms: number) => {
      waits.push(ms);
    },
  };
}

const writes = [
  write({ kind: 'field', field: 'seo.title', value: 'x' }),
  write({ kind: 'tags', add: ['eco'], remove: [] }),
  write({
    kind: 'metafield-set',
    ownerId: PRODUCT,
    namespace: '$app',
    key: 'material',
    type: 'single_line_text_field',
    value: 'Linen',
    compareDigest: 'stale',
  }),
];
const mutations = buildMutations(PRODUCT, writes);

describe('executeWriteBack', () => {
  it('surfaces userErrors as failures with Shopify’s messages, and tells stale digests apart', async () => {
    const shopify = scripted([
      {
        data: {
          productUpdate: { product: null, userErrors: [{ field: ['seo', 'title'], message: 'is too long' }] },
        },
      },
      ok('tagsAdd'),
      {
        data: {
          metafieldsSet: {
            metafields: null,
            userErrors: [
              {
                field: ['metafields', '0', 'compareDigest'],
                message: 'The resource has been updated',
                code: 'STALE_OBJECT',
              },
            ],
          },
        },
      },
    ]);
    const { outcomes } = await executeWriteBack(writes, mutations, shopify.graphql, { sleep: shopify.sleep });
    expect(outcomes.map((o) => (o.ok ? 'ok' : `${o.kind}: ${o.errors.join('; ')}`))).toEqual([
      'rejected: seo.title: is too long',
      'ok',
      'stale: metafields.0.compareDigest: The resource has been updated (STALE_OBJECT)',
    ]);
  });

  it('waits out THROTTLED and retries, pacing later calls by the restore rate', async () => {
    const shopify = scripted([
      throttled(2),
      throttled(4),
      ok('productUpdate', 5),
      ok('tagsAdd'),
      ok('metafieldsSet'),
    ]);
    const { outcomes } = await executeWriteBack(writes, mutations, shopify.graphql, { sleep: shopify.sleep });
    expect(outcomes.every((o) => o.ok)).toBe(true);
    expect(shopify.calls).toEqual([
      'WriteBackProductUpdate',
      'WriteBackProductUpdate',
      'WriteBackProductUpdate',
      'WriteBackTagsAdd',
      'WriteBackMetafieldsSet',
    ]);
    // Two throttled answers: each waited until 10 points were back (8 and 6 missing at 50/s,
    // at least a second); then 5 points left before the tags call: 100 ms for the 5 missing.
    expect(shopify.waits).toEqual([1000, 1000, 100]);
  });

  it('gives up after the retries, and leaves the writes of a call with no answer unknown', async () => {
    const always = scripted(Array.from({ length: 3 }, () => throttled(0)));
    const gaveUp = await executeWriteBack(
      writes.slice(0, 1),
      buildMutations(PRODUCT, writes.slice(0, 1)),
      always.graphql,
      {
        sleep: always.sleep,
        throttleRetries: 2,
      },
    );
    expect(gaveUp.outcomes[0]).toMatchObject({ ok: false, kind: 'throttled' });
    expect(always.calls).toHaveLength(3);

    const cut = scripted([ok('productUpdate'), new Error('socket hang up')]);
    const { outcomes } = await executeWriteBack(writes, mutations, cut.graphql, { sleep: cut.sleep });
    expect(outcomes.map((o) => (o.ok ? 'ok' : o.kind))).toEqual(['ok', 'unknown', 'unknown']);
    expect(cut.calls).toEqual(['WriteBackProductUpdate', 'WriteBackTagsAdd']);
  });

  it('stores the hash of what Shopify answered it holds, not of what was sent', async () => {
    const sent = '<p>Soft   linen<br></p>';
    const stored = '<p>Soft linen<br /></p>';
    const field = write({ kind: 'field', field: 'descriptionHtml', value: sent });
    field.next = {
      ...field.next,
      target: 'descriptionHtml',
      valueHash: valueHash({ kind: 'field', value: sent }),
    };
    const metafield = write({
      kind: 'metafield-set',
      ownerId: PRODUCT,
      namespace: '$app',
      key: 'bullets',
      type: 'list.single_line_text_field',
      value: '["a","b"]',
      compareDigest: null,
    });
    const answeredList = '["a","b","c"]';
    const both = [field, metafield];
    const shopify = scripted([
      {
        data: {
          productUpdate: {
            product: {
              id: PRODUCT,
              title: 'T',
              descriptionHtml: stored,
              seo: { title: null, description: null },
            },
            userErrors: [],
          },
        },
      },
      {
        data: {
          metafieldsSet: {
            metafields: [
              {
                ownerId: PRODUCT,
                namespace: 'app--1',
                key: 'bullets',
                type: 'list.single_line_text_field',
                value: answeredList,
                compareDigest: 'd1',
              },
            ],
            userErrors: [],
          },
        },
      },
    ]);
    const { outcomes } = await executeWriteBack(both, buildMutations(PRODUCT, both), shopify.graphql, {
      sleep: shopify.sleep,
    });
    expect(outcomes.map((o) => o.ok)).toEqual([true, true]);
    expect(outcomes[0]?.write.next.valueHash).toBe(valueHash({ kind: 'field', value: stored }));
    expect(outcomes[0]?.write.next.valueHash).not.toBe(valueHash({ kind: 'field', value: sent }));
    expect(outcomes[1]?.write.next.valueHash).toBe(
      valueHash({ kind: 'metafield', type: 'list.single_line_text_field', value: answeredList }),
    );
  });

  it('keeps the points of the call that follows (a read right before its write), before and after THROTTLED', async () => {
    const shopify = scripted([throttled(0), ok('product')]);
    await pacedRequest(
      shopify.graphql,
      'query WriteBackProduct { x }',
      {},
      {
        sleep: shopify.sleep,
        cost: 6,
        reserve: 10,
        lastCost: cost(0),
      },
    );
    // 16 points at 50 per second: 320 ms before the read; after THROTTLED (6 asked) the same 16.
    expect(shopify.waits).toEqual([320, 1000]);
    const restoring = {
      ...cost(0),
      throttleStatus: { maximumAvailable: 1000, currentlyAvailable: 0, restoreRate: 10 },
    };
    const slowThrottled = { ...throttled(0), extensions: { cost: { ...restoring, actualQueryCost: null } } };
    const slow = scripted([slowThrottled, ok('product')]);
    await pacedRequest(
      slow.graphql,
      'query WriteBackProduct { x }',
      {},
      {
        sleep: slow.sleep,
        cost: 6,
        reserve: 10,
        lastCost: restoring,
      },
    );
    // At 10 per second: 1.6 s before, and after THROTTLED the 10 points Shopify asked plus the
    // 10 kept: 2 s (without the reserve, 1 s).
    expect(slow.waits).toEqual([1600, 2000]);
  });

  it('computes the wait for a cost from the throttle status', () => {
    expect(throttleDelayMs(undefined, 10)).toBe(0);
    expect(throttleDelayMs(cost(10), 10)).toBe(0);
    expect(throttleDelayMs(cost(0), 10)).toBe(200);
    expect(throttleDelayMs(cost(0), 5000)).toBe(20_000);
  });
});
