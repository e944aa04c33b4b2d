import type { ShopHealthState } from './shop-health.js';

/** One shop on the overview: its state, why, and the facts the rules read. */
export interface ShopOverviewDto {
  shop: string;
  state: ShopHealthState;
  /** Every rule that applies, in words (failing ones first). */
  reasons: string[];
  authState: string;
  mode: string;
  backlog: number;
  backlogAgeSeconds: number | null;
  breaker: string;
  /** The shop's Shopify cost bucket in use, 0 to 1; null before Shopify reported it. */
  costBucketUse: number | null;
  openFailures: Record<string, number>;
}

/** `GET /admin/overview`: each shop's state and the numbers that matter now. */
export interface OverviewDto {
  at: string;
  shops: ShopOverviewDto[];
  /** Deliveries received in the last minute, every shop. */
  deliveriesLastMinute: number;
  /** Each catalog account's calls in the last minute (this process) against its budget. */
  catalog: Array<{ account: string; callsLastMinute: number; budgetPerMinute: number }>;
  enrichmentLagSeconds: number | null;
  /** Open failures by job kind, every shop. */
  openFailuresByKind: Record<string, number>;
  /** Write-backs sent to Shopify in the last hour, every shop. */
  writeBacksLastHour: number;
}
