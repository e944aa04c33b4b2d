// The big shop's figures of `tenants` (issue 45): its resync's rate against its budget, split
// into Shopify's bulk operation and the catalog part, its calls per 5 s and the enrichment polls
// that ran meanwhile (where the catalog part lost its pace).
import type { AdminRequestRecord } from '#testing/shopify-sandbox';
import { callsSince } from './catalog-state.js';
import { ratio, round } from './figures.js';
import type { PartRun } from './tenants-part.js';
import type { TenantShop, TenantsStack } from './tenants-stack.js';

/** The big shop's sync: records a second from its start until its last record, ÷ the budget, and its calls. */
export async function bigShopFigures(
  stack: TenantsStack,
  big: TenantShop,
  run: PartRun,
  size: { bigProducts: number; catalogRate: number; budgetTarget: number },
) {
  const calls = (await callsSince(big.account, run.bigStartedEpoch)).filter(
    (c) => c.time <= run.bigStartedEpoch + run.bigMs,
  );
  const recordsPerSecond = size.bigProducts / (run.bigMs / 1000);
  // What the big shop's sync spent of its Shopify bucket (actual cost; default limits: 100 a second).
  const log = await stack.shopify.control('GET', `shops/${big.domain}/admin-requests?api=graphql`);
  const reads = (log.body.requests as AdminRequestRecord[]).filter((r) => {
    const at = Date.parse(r.at);
    return at >= run.bigStartedEpoch && at <= run.bigStartedEpoch + run.bigMs;
  });
  const points = reads.reduce((sum, r) => sum + (r.actualQueryCost ?? 0), 0);
  const bulkOperationMs = await bulkOperationTime(stack, big.domain, run);
  // The time split: the bulk read until the account's first call (Shopify's part), then the
  // catalog part from its first call to its last, at the budget's rate or not (the connector's).
  const first = calls.reduce((at, c) => Math.min(at, c.time), Number.POSITIVE_INFINITY);
  const last = calls.reduce((at, c) => Math.max(at, c.time), Number.NEGATIVE_INFINITY);
  const firstCallMs = calls.length > 0 ? first - run.bigStartedEpoch : Number.NaN;
  const catalogPartMs = calls.length > 0 ? last - first : Number.NaN;
  const byOperation: Record<string, number> = {};
  for (const r of reads) byOperation[r.operationName ?? '?'] = (byOperation[r.operationName ?? '?'] ?? 0) + 1;
  return {
    shopify: {
      requests: reads.length,
      byOperation,
      points,
      pointsPerSecond: round(points / (run.bigMs / 1000), 1),
      throttled: reads.filter((r) => r.outcome === 'throttled').length,
    },
    ms: round(run.bigMs, 0),
    faultsAtMs: round(run.faultsAtMs, 0),
    recordsPerSecond: round(recordsPerSecond, 1),
    budgetUse: ratio(recordsPerSecond, size.catalogRate),
    firstCallMs: round(firstCallMs, 0),
    bulkOperationMs: round(bulkOperationMs, 0),
    budgetUseBesideShopify: ratio(
      size.bigProducts / ((run.bigMs - bulkOperationMs) / 1000),
      size.catalogRate,
    ),
    catalogPartBudgetUse: ratio(size.bigProducts / (catalogPartMs / 1000), size.catalogRate),
    // Where the catalog part lost pace: the account's calls in each 5 s from the first call, and
    // the enrichment polls that ran meanwhile (their start in s from the first call).
    callsPer5s: perWindow(
      calls.map((c) => c.time - first),
      5_000,
    ),
    polls: await pollsBetween(stack, first, last),
    targetMet: recordsPerSecond / size.catalogRate >= size.budgetTarget,
    calls: calls.length,
    catalog429s: calls.filter((c) => c.status === 429).length,
    records: stack.catalog.sandbox.accounts.require(big.account.id).products.size,
  };
}

/** The connector's enrichment polls that started between `from` and `to` (epoch ms). */
async function pollsBetween(stack: TenantsStack, from: number, to: number) {
  if (!Number.isFinite(from)) return [];
  const { rows } = await stack.db.query<{ trigger: string; at: number; took: number | null; shops: number }>(
    `SELECT trigger,
            extract(epoch FROM started_at) * 1000 AS at,
            extract(epoch FROM finished_at - started_at) * 1000 AS took,
            (SELECT count(*) FROM jsonb_object_keys(coalesce(counts->'shops', '{}'::jsonb)))::int AS shops
       FROM "${stack.schema}".enrichment_poll
      WHERE started_at BETWEEN to_timestamp($1 / 1000.0) AND to_timestamp($2 / 1000.0)
      ORDER BY started_at`,
    [from, to],
  );
  return rows.map((r) => ({
    trigger: r.trigger,
    atS: round((Number(r.at) - from) / 1000, 1),
    tookMs: r.took === null ? null : round(Number(r.took), 0),
    shops: r.shops,
  }));
}

/** How many of `offsets` (ms) fall in each `windowMs` from 0. */
function perWindow(offsets: readonly number[], windowMs: number): number[] {
  const counts: number[] = [];
  for (const at of offsets) {
    const i = Math.floor(at / windowMs);
    while (counts.length <= i) counts.push(0);
    counts[i] = (counts[i] ?? 0) + 1;
  }
  return counts;
}

/**
 * Shopify's own time in the big shop's resync: its bulk operations' runs (created to finished, as
 * the sandbox ran them at its bulk rate) within the resync. The connector waits on them and
 * cannot call the catalog before (the result is one file at the end).
 */
async function bulkOperationTime(stack: TenantsStack, domain: string, run: PartRun): Promise<number> {
  const list = await stack.shopify.control('GET', `shops/${domain}/bulk-operations`);
  const runs = list.body.bulkOperations as Array<{ createdAt: string; finishedAt: string | null }>;
  let ms = 0;
  for (const op of runs) {
    const created = Date.parse(op.createdAt);
    if (op.finishedAt === null || created < run.bigStartedEpoch) continue;
    if (created > run.bigStartedEpoch + run.bigMs) continue;
    ms += Date.parse(op.finishedAt) - created;
  }
  return ms;
}
