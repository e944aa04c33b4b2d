// How `freshness` reads the budgets: how busy the catalog and Shopify budgets were during the
// edits, and the enrichment poll's share of the catalog budget (issue 44: adaptive polling within
// at most 10 % of the account's budget), from the connector's own poll records and the catalog's
// request log.
import type { BenchStack } from './bench-stack.js';
import { callsSince } from './catalog-state.js';
import { ratio, round } from './figures.js';
import type { EditRun } from './freshness-edits.js';
import { pollCalls } from './poll-calls.js';
import { BENCH_ADMIN_TOKEN } from './resync.js';

/** The Shopify sandbox's default restore rate (points per second, Shopify's standard plan). */
const RESTORE_RATE = 100;

/** The poll's calls over a window, against the account's budget over it. */
export interface PollShareFigures {
  windowS: number;
  /** Polls that started in the window and finished their work, per trigger, and their catalog calls. */
  polls: { schedule: number; early: number; admin: number };
  calls: { schedule: number; early: number; admin: number };
  /** The scheduled and early polls' calls / (rate x window): what the bound applies to. */
  share: number | null;
  /** The account's searches in the window, from the catalog's request log (every search: the poll's, a push's or a sync's). */
  catalogSearches: number;
  searchShare: number | null;
}

/**
 * The poll's share of the catalog budget between `from` and `to` (epoch ms): the calls of the
 * polls that started in the window (each poll's per-shop `calls`, as the connector stores them
 * in `enrichment_poll`) over `rate x seconds`, per trigger; beside it the account's searches in
 * the catalog's request log over the same window (an upper bound for the poll's: a sync or a
 * push may search too).
 */
export async function pollShare(
  stack: BenchStack,
  window: { from: number; to: number },
  rate: number,
): Promise<PollShareFigures> {
  const seconds = Math.max(0.001, (window.to - window.from) / 1000);
  const { polls, calls } = await pollCalls(stack, window);
  const searches = (await callsSince(stack.connectorAccount, window.from)).filter(
    (c) => c.time <= window.to && c.method === 'POST' && c.path.endsWith('/search'),
  ).length;
  return {
    windowS: round(seconds, 1),
    polls,
    calls,
    share: ratio(calls.schedule + calls.early, rate * seconds),
    catalogSearches: searches,
    searchShare: ratio(searches, rate * seconds),
  };
}

/** The connector's own figure: `GET /admin/enrichment/poll-budget` over the last `minutes` (its account's entry). */
export async function reportedPollShare(
  stack: BenchStack,
  minutes: number,
): Promise<{ windowSeconds: number; share: number; bound: number; calls: Record<string, number> } | null> {
  const answer = await fetch(
    `${stack.connector.url}/admin/enrichment/poll-budget?minutes=${Math.max(1, Math.ceil(minutes))}`,
    { headers: { Authorization: `Bearer ${BENCH_ADMIN_TOKEN}` } },
  );
  // A checkout without the route (before issue 44's page): no reported figure.
  if (answer.status === 404) return null;
  if (!answer.ok)
    throw new Error(`GET /admin/enrichment/poll-budget: ${answer.status} ${await answer.text()}`);
  const body = (await answer.json()) as {
    windowSeconds: number;
    accounts: Array<{ share: number; bound: number; calls: Record<string, number> }>;
  };
  const account = body.accounts[0];
  if (!account) return null;
  return {
    windowSeconds: body.windowSeconds,
    share: round(account.share, 4),
    bound: account.bound,
    calls: account.calls,
  };
}

/**
 * How busy both budgets were while the edits were sent (first send to last save): the
 * connector's catalog calls per second / the account's rate, and its Admin GraphQL points (actual
 * cost, the sandbox's request log) per second / the restore rate, with its THROTTLED answers.
 */
export async function windowLoad(stack: BenchStack, run: EditRun, catalogRate: number) {
  const from = run.startedAtEpoch;
  const to = Math.max(run.savedUntilEpoch, from + 1);
  const seconds = (to - from) / 1000;
  const calls = (await callsSince(stack.connectorAccount, from)).filter((c) => c.time <= to);
  const reads = (await stack.shopify.adminRequests({ api: 'graphql' })).filter((r) => {
    const at = Date.parse(r.at);
    return at >= from && at <= to;
  });
  const points = reads.reduce((sum, r) => sum + (r.actualQueryCost ?? 0), 0);
  return {
    editWindowS: round(seconds, 1),
    catalogCallsPerSecond: round(calls.length / seconds, 1),
    catalogBudgetUse: ratio(calls.length / seconds, catalogRate),
    catalog429s: calls.filter((c) => c.status === 429).length,
    shopifyPointsPerSecond: round(points / seconds, 1),
    shopifyBucketUse: ratio(points / seconds, RESTORE_RATE),
    shopifyThrottled: reads.filter((r) => r.outcome === 'throttled').length,
  };
}
