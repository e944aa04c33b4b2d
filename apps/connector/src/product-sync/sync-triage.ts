import type { SyncReason } from '../platform/queues/job-payloads.js';
import type { SyncOutcome } from './apply/sync-subject.js';

/** A waiting delivery, as far as triage cares. */
export interface TriageDelivery {
  topic: string;
  payloadUpdatedAt: Date | null;
}

/** What is known of the product from earlier runs. */
export interface TriageState {
  lastAppliedUpdatedAt: Date | null;
  tombstonedAt: Date | null;
}

export type Triage = { kind: 'skip'; outcome: SyncOutcome } | { kind: 'delete' } | { kind: 'load' };

/**
 * Decides, before any Shopify query, what a sync run does with the product's waiting deliveries:
 * - a tombstoned product stays deleted (Shopify never reuses ids): nothing;
 * - a `products/delete` among them: delete;
 * - a webhook or sweep run with nothing waiting (an earlier run covered it): nothing;
 * - every waiting payload strictly older than the last applied `updatedAt`: stale, nothing;
 * - otherwise: read the product. Replays, resyncs, reconciliation and drift always read.
 */
export function triageSync(reason: SyncReason, pending: TriageDelivery[], state: TriageState | null): Triage {
  if (state?.tombstonedAt) return { kind: 'skip', outcome: 'tombstoned' };
  if (pending.some((delivery) => delivery.topic === 'products/delete')) return { kind: 'delete' };
  if (reason !== 'webhook' && reason !== 'sweep') return { kind: 'load' };
  if (pending.length === 0) return { kind: 'skip', outcome: 'nothing_pending' };
  const last = state?.lastAppliedUpdatedAt;
  if (
    last &&
    pending.every((d) => d.payloadUpdatedAt !== null && d.payloadUpdatedAt.getTime() < last.getTime())
  ) {
    return { kind: 'skip', outcome: 'stale' };
  }
  return { kind: 'load' };
}
