import type { RunPlannedCallDto } from '../../resync/resync-run.dto.js';

/** One catalog call a dry run planned: the same shape a dry-run resync lists per product. */
export type PlannedCallDto = RunPlannedCallDto;

/** Why: `POST /admin/products/{id}/sync?dryRun=true` answers with the plan, nothing sent. */
export interface ProductSyncPlanDto {
  shop: string;
  productId: string;
  dryRun: true;
  /** Whether Shopify still has the product (not: the plan deletes its records). */
  found: boolean;
  result: string;
  detail: string | null;
  counts: { creates: number; patches: number; deletes: number; total: number };
  calls: PlannedCallDto[];
  events: string[];
}

/** Why: `POST /admin/products/{id}/sync` (no dry run) answers 202 once the sync is queued. */
export interface ProductSyncQueuedDto {
  shop: string;
  productId: string;
  dryRun: false;
  queued: true;
  reason: 'operator';
  /** Where the sync's outcome shows once it ran. */
  status: string;
}
