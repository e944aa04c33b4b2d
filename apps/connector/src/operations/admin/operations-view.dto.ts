import type { PauseState } from '../../clients/catalog/catalog-gate.js';
import type { OperatorPause } from '../../clients/catalog/sync-pauses.js';
import type { EnrichmentStatus } from '../../write-back/write-back-status.js';

/** The operators' sync pauses in force (`scope` `*`: every shop). */
export interface SyncPausesDto {
  pauses: OperatorPause[];
}

/** The queue and budget view (`GET /admin/queues`). */
export interface OperationsViewDto {
  /** Jobs per queue and state, across replicas; `paused`: the BullMQ queue itself is paused. */
  queues: Array<{
    name: string;
    waiting: number;
    active: number;
    delayed: number;
    failed: number;
    paused: boolean;
  }>;
  /** Each shop's sync: paused or not, and why (the catalog breaker, or an operator). */
  shops: Array<{ shop: string } & PauseState>;
  pauses: OperatorPause[];
  /** Each catalog account (never its key): breaker, calls this process made in the last minute, the budget. */
  catalog: Array<{
    account: string;
    shops: string[];
    breaker: string;
    callsLastMinute: number;
    budgetPerMinute: number;
  }>;
  /** The enrichment poll's checkpoint, lag and watchlist size; null until the stage reports them. */
  enrichment: EnrichmentStatus;
}
