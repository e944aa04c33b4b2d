import { Injectable } from '@nestjs/common';
import { Clock } from '#lib/clock';
import type { PendingDelivery } from '../intake/inbox.repository.js';
import { SyncSettings } from '../platform/config/settings.js';
import type { SyncReason } from '../platform/queues/job-payloads.js';
import type { SyncOutcome, SyncSubject } from './apply/sync-subject.js';
import { ProductSyncStates } from './product-sync-states.repository.js';
import { SyncEvents } from './sync-events.js';
import { triageSync } from './sync-triage.js';

/** What a run does, decided before any Shopify query. */
export type SyncDecision =
  | { kind: 'skip'; outcome: SyncOutcome }
  /** `graceLeft`: how long the `products/delete` still waits (0: delete now). */
  | { kind: 'delete'; graceLeft: number }
  /** `lastSyncedAt`: the product's state as this decision read it (the read stage needs no second read). */
  | { kind: 'load'; lastSyncedAt: Date | null };

/**
 * Why: a sync run's first decision, from the product's waiting deliveries and its state, before
 * Shopify is read (`triageSync`): nothing to do, a delete (after its grace), or read and apply.
 * A skipped product a running resync waits for that is deleted for good (`tombstoned`) is
 * reported to the after-sync listeners, so the run stops waiting for it.
 */
@Injectable()
export class SyncPlanner {
  constructor(
    private readonly states: ProductSyncStates,
    private readonly events: SyncEvents,
    private readonly settings: SyncSettings,
    private readonly clock: Clock,
  ) {}

  async decide(
    subject: SyncSubject,
    reason: SyncReason,
    pending: PendingDelivery[],
    jobId: string | null,
  ): Promise<SyncDecision> {
    const state = await this.states.get(subject);
    let triage = triageSync(reason, pending, state);
    // A resync's request deduplicated into this (webhook or sweep) job while it waited: the run
    // waits for a read of the product, so the job reads it as the resync's own job would.
    if (triage.kind === 'skip' && triage.outcome !== 'tombstoned' && (await this.events.awaited(subject)))
      triage = triageSync('resync', pending, state);
    // Deleted for good (tombstoned) after a running resync listed it: the run hears it is gone,
    // or it would wait for the product for ever (no read could report it).
    if (triage.kind === 'skip' && triage.outcome === 'tombstoned' && (await this.events.awaited(subject)))
      await this.events.emitSynced({ ...subject, outcome: 'tombstoned', product: null, jobId, reason });
    if (triage.kind === 'delete') return { kind: 'delete', graceLeft: this.deleteGraceLeft(pending) };
    if (triage.kind === 'load') return { kind: 'load', lastSyncedAt: state?.lastSyncedAt ?? null };
    return triage;
  }

  /** How long a `products/delete` still waits (the configured grace, from its first delivery). */
  private deleteGraceLeft(pending: PendingDelivery[]): number {
    const grace = this.settings.deleteGraceMs;
    if (grace <= 0) return 0;
    const deletes = pending.filter((d) => d.topic === 'products/delete').map((d) => d.receivedAt.getTime());
    if (deletes.length === 0) return 0;
    return Math.max(0, Math.min(...deletes) + grace - this.clock.now());
  }
}
