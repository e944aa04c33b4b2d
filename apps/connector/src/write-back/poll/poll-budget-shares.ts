import type { PollTrigger } from '../store/enrichment-poll-run.entity.js';

/** Calls or polls per trigger. */
export type PerTrigger = Record<PollTrigger, number>;

/** One catalog account's enrichment polls over the window, against its budget. */
export interface AccountPollShare {
  /** The account id (`<baseUrl>#<fingerprint>`, as `GET /admin/queues` lists it). */
  account: string;
  /** The shops calling through it (they share its budget). */
  shops: string[];
  /** Polls that finished their work in the window, per trigger (each poll counted per shop it polled). */
  polls: PerTrigger;
  /** Their catalog calls (searches), per trigger. */
  calls: PerTrigger;
  /** The account's budget over the window: `CONNECTOR_CATALOG_RATE_PER_SECOND` x its seconds. */
  budgetCalls: number;
  /** The scheduled and early polls' calls / `budgetCalls`: what `earlyPollPlan` keeps within `bound`. */
  share: number;
  /** `CONNECTOR_ENRICHMENT_POLL_BUDGET_SHARE`. */
  bound: number;
}

/** What `pollBudgetShares` weighs. */
export interface PollBudgetInputs {
  /** Per trigger and shop, from the poll runs (`EnrichmentPollRuns.callsSince`). */
  rows: ReadonlyArray<{ trigger: PollTrigger; shop: string; polls: number; calls: number }>;
  /** The catalog accounts and their shops (`CatalogClients.all`). */
  accounts: ReadonlyArray<{ id: string; shops: readonly string[] }>;
  /** The window's length (from its start, clamped to the oldest poll kept, to now). */
  windowSeconds: number;
  ratePerSecond: number;
  bound: number;
}

const none = (): PerTrigger => ({ schedule: 0, early: 0, admin: 0 });

/**
 * Why: the catalog calls page shows how much of each account's budget the enrichment poll took
 * (issue 44: adaptive polling stays within a configured share). The scheduled and the early polls
 * count against the share, as `earlyPollPlan` counts them; an operator's polls are listed beside
 * it. A shop no account lists any more (its key changed, or it left) is left out.
 */
export function pollBudgetShares(inputs: PollBudgetInputs): AccountPollShare[] {
  const budgetCalls = inputs.ratePerSecond * Math.max(0, inputs.windowSeconds);
  return inputs.accounts.map((account) => {
    const polls = none();
    const calls = none();
    for (const row of inputs.rows) {
      if (!account.shops.includes(row.shop)) continue;
      polls[row.trigger] += row.polls;
      calls[row.trigger] += row.calls;
    }
    const spent = calls.schedule + calls.early;
    return {
      account: account.id,
      shops: [...account.shops],
      polls,
      calls,
      budgetCalls: Math.round(budgetCalls),
      share: budgetCalls > 0 ? spent / budgetCalls : 0,
      bound: inputs.bound,
    };
  });
}
