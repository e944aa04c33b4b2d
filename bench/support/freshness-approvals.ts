// The approval part of `freshness`: enriched values approved in the catalog portal, timed until
// Shopify shows them (the connector's write-back: its enrichment poll, then a push).
import type { BenchStack } from './bench-stack.js';
import { waitFor } from './bench-stack.js';
import { sleep } from './figures.js';
import { editSeq, editTitle, productRecord } from './freshness-shop.js';
import { BENCH_ADMIN_TOKEN } from './resync.js';

/** The write-back attribute the benchmark approves: the demo mapping sends it to the product's SEO title. */
const APPROVED = 'seoTitle';

/**
 * How the catalog treats a review: the catalog sandbox's default leaves `updatedAt` alone (the
 * spec promises nothing either way), so only the connector's watchlist re-check finds the
 * approval; with `reviewTouchesUpdatedAt` its poll's `updatedAt` walk does.
 */
export type ReviewKind = 'leavesUpdatedAt' | 'movesUpdatedAt';

/** One approval and when Shopify showed it. */
export interface Approval {
  kind: ReviewKind;
  productId: number;
  skuId: string;
  /** The approved value, read from the catalog record (in-process) before the review. */
  value: unknown;
  approvedAt: number | null;
  visibleAt: number | null;
  /** Shopify's SEO title equals the approved value once visible. */
  matches: boolean | null;
}

/**
 * Enriches the records of `productIds` in the catalog (an enrichment run from the portal, stepped
 * until FINISHED: values with blame ENRICHMENT, awaiting review), then asks the connector for a
 * poll (`POST /admin/enrichment/poll`) and waits until it finished and put every record on its
 * review watchlist: the state an approval starts from.
 */
export async function enrichAndWatch(stack: BenchStack, productIds: readonly number[]): Promise<string[]> {
  const skuIds = await enrich(stack, productIds);
  await pollOnce(stack);
  const { rows } = await stack.db.query<{ sku_id: string }>(
    `SELECT sku_id FROM "${stack.schema}".review_watchlist WHERE shop = $1`,
    [stack.shop.domain],
  );
  const watched = new Set(rows.map((r) => r.sku_id));
  const missing = skuIds.filter((s) => !watched.has(s));
  if (missing.length > 0) throw new Error(`not on the connector's review watchlist: ${missing.join(', ')}`);
  return skuIds;
}

/**
 * Makes the approval records as old, to the connector's poll, as records reviewed long after
 * their enrichment: each poll walks `updatedAt` and `completedAt` again from `overlapMs` before
 * its checkpoints, and a checkpoint only moves with newer records, so in a quiet account the
 * records changed last stay in that window, and an approval of theirs is found by the walk
 * whatever the review did. Waits until their last change is `overlapMs` old, then gives the
 * account newer activity, the tick product's record enriched then edited by the merchant, and
 * waits until a poll has walked it (both checkpoints at or past it): from then on only the
 * review watchlist, or a review that moves `updatedAt`, finds an approval.
 */
export async function ageApprovals(
  stack: BenchStack,
  options: { productIds: readonly number[]; tickId: number; overlapMs: number; pollMs: number },
): Promise<void> {
  const changed = options.productIds.map((id) => {
    const record = productRecord(stack, 'connector', id);
    return Math.max(record?.updatedAt ?? 0, record?.dataEnrichment?.completedAt ?? 0);
  });
  const oldEnough = Math.max(...changed) + options.overlapMs + 1_000;
  await waitFor(
    "the approval records to leave the poll's overlap window",
    async () => Date.now() > oldEnough,
    options.overlapMs + 60_000,
  );
  await enrich(stack, [options.tickId]);
  const id = options.tickId;
  await stack.merchant('PUT', `products/${id}.json`, { product: { id, title: editTitle(id, 1) } });
  await waitFor(
    'the connector to sync the tick product',
    async () => editSeq(productRecord(stack, 'connector', id)?.attributes.get('name')?.value) >= 1,
  );
  const tick = productRecord(stack, 'connector', id);
  const updatedAt = tick?.updatedAt ?? Number.POSITIVE_INFINITY;
  const completedAt = tick?.dataEnrichment?.completedAt ?? Number.POSITIVE_INFINITY;
  await waitFor(
    'a poll to walk past the tick product',
    async () => {
      const { rows } = await stack.db.query<{ field: string; checkpoint: string | null }>(
        `SELECT field, checkpoint FROM "${stack.schema}".enrichment_checkpoint WHERE shop = $1`,
        [stack.shop.domain],
      );
      const at = (field: string) => Number(rows.find((r) => r.field === field)?.checkpoint ?? 0);
      return at('updatedAt') >= updatedAt && at('dataEnrichment.completedAt') >= completedAt;
    },
    2 * options.pollMs + 60_000,
  );
}

/** An enrichment run of the products' records from the portal, stepped until FINISHED; their skuIds. */
async function enrich(stack: BenchStack, productIds: readonly number[]): Promise<string[]> {
  const skuIds = productIds.map((id) => {
    const record = productRecord(stack, 'connector', id);
    if (!record) throw new Error(`no catalog record for product ${id}`);
    return record.skuId;
  });
  const base = `/portal/v1/accounts/${stack.connectorAccount.id}`;
  const run = await stack.catalog.portal.post(`${base}/enrichment/runs`, {
    skuIds,
    mode: 'manual',
    batchSize: skuIds.length,
  });
  if (run.status !== 200) throw new Error(`enrichment run: ${run.status} ${JSON.stringify(run.body)}`);
  // Two steps: QUEUED -> IN_PROGRESS -> FINISHED, one batch.
  for (const _ of [1, 2]) {
    const step = await stack.catalog.portal.post(`${base}/enrichment/runs/${run.body.data.runId}/step`);
    if (step.status !== 200) throw new Error(`enrichment step: ${step.status} ${JSON.stringify(step.body)}`);
  }
  for (const [i, id] of productIds.entries()) {
    const entry = productRecord(stack, 'connector', id)?.attributes.get(APPROVED);
    if (entry?.blame !== 'ENRICHMENT' || entry.value === null)
      throw new Error(
        `record ${skuIds[i]} has no enriched ${APPROVED} awaiting review: ${JSON.stringify(entry)}`,
      );
  }
  return skuIds;
}

/** `POST /admin/enrichment/poll`, then waits until that poll finished and its pushes are done. */
async function pollOnce(stack: BenchStack): Promise<void> {
  const poll = await admin<{ id: string }>(stack, 'POST', '/admin/enrichment/poll');
  await waitFor(
    'the enrichment poll',
    async () => {
      const status = await admin<{ status: string; pushes: { pending: number } }>(
        stack,
        'GET',
        `/admin/enrichment/poll/${encodeURIComponent(poll.id)}`,
      );
      if (status.status === 'failed') throw new Error(`poll failed: ${JSON.stringify(status)}`);
      return status.status === 'finished' && status.pushes.pending === 0;
    },
    120_000,
  );
}

/**
 * Approves `APPROVED` on each record, one review every `spacingMs` in the given order (each
 * kind's catalog behaviour set on the account just before its review, through the portal), and
 * waits until Shopify's product shows a new SEO title for each, or `timeoutMs` after the last
 * review. Shopify is read in-process (the sandbox's store): no Admin API call, nothing taken
 * from the shop's cost bucket. Latency: from the review's answer to the first read showing it.
 */
export async function runApprovals(
  stack: BenchStack,
  plan: ReadonlyArray<{ kind: ReviewKind; productId: number; skuId: string }>,
  options: { spacingMs: number; timeoutMs: number },
): Promise<Approval[]> {
  const base = `/portal/v1/accounts/${stack.connectorAccount.id}`;
  const shop = stack.shopify.sandbox.shops.byDomain(stack.shop.domain);
  if (!shop) throw new Error(`no shop ${stack.shop.domain} in the Shopify sandbox`);
  const seoTitle = (id: number) => shop.products.get(id)?.seoTitle ?? null;
  const approvals: Approval[] = plan.map((p) => ({
    ...p,
    value: productRecord(stack, 'connector', p.productId)?.attributes.get(APPROVED)?.value ?? null,
    approvedAt: null,
    visibleAt: null,
    matches: null,
  }));
  const before = new Map(approvals.map((a) => [a.productId, seoTitle(a.productId)]));
  let deadline = Number.POSITIVE_INFINITY;
  const watcher = (async () => {
    for (;;) {
      for (const a of approvals) {
        if (a.approvedAt === null || a.visibleAt !== null) continue;
        const now = seoTitle(a.productId);
        if (now !== before.get(a.productId)) {
          a.visibleAt = performance.now();
          a.matches = now === a.value;
        }
      }
      if (approvals.every((a) => a.visibleAt !== null) || performance.now() > deadline) return;
      await sleep(50);
    }
  })();
  let touches: boolean | null = null;
  const t0 = performance.now();
  try {
    for (const [i, a] of approvals.entries()) {
      const wait = i * options.spacingMs - (performance.now() - t0);
      if (wait > 1) await sleep(wait);
      const wanted = a.kind === 'movesUpdatedAt';
      if (touches !== wanted) {
        const set = await stack.catalog.portal.patch(`${base}/behaviour`, { reviewTouchesUpdatedAt: wanted });
        if (set.status !== 200) throw new Error(`behaviour: ${set.status} ${JSON.stringify(set.body)}`);
        touches = wanted;
      }
      const review = await stack.catalog.portal.post(`${base}/products/${a.skuId}/review`, {
        approve: [APPROVED],
      });
      if (review.status !== 200) throw new Error(`review: ${review.status} ${JSON.stringify(review.body)}`);
      a.approvedAt = performance.now();
    }
    deadline = performance.now() + options.timeoutMs;
  } finally {
    if (deadline === Number.POSITIVE_INFINITY) deadline = 0;
  }
  await watcher;
  // Back to the sandbox's default for whatever follows.
  await stack.catalog.portal.patch(`${base}/behaviour`, { reviewTouchesUpdatedAt: false });
  return approvals;
}

/** Each approval's review-to-Shopify latency in ms (null: never visible within the wait). */
export function approvalLatencies(approvals: readonly Approval[]): Array<number | null> {
  return approvals.map((a) =>
    a.approvedAt === null || a.visibleAt === null ? null : Math.max(0, a.visibleAt - a.approvedAt),
  );
}

async function admin<T>(stack: BenchStack, method: string, path: string): Promise<T> {
  const answer = await fetch(`${stack.connector.url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${BENCH_ADMIN_TOKEN}` },
  });
  if (!answer.ok) throw new Error(`${method} ${path}: ${answer.status} ${await answer.text()}`);
  return (await answer.json()) as T;
}
