import { Processor, WorkerHost } from '@nestjs/bullmq';
import type { OnApplicationBootstrap } from '@nestjs/common';
import type { Job } from 'bullmq';
import type { PendingDelivery } from '../intake/inbox.repository.js';
import { PendingDeliveries } from '../intake/pending-deliveries.service.js';
import type { SyncProductPayload } from '../platform/queues/job-payloads.js';
import { QueueName } from '../platform/queues/queue-names.js';
import { WORKER_OPTIONS } from '../platform/queues/worker-options.js';
import type { SyncResult } from './apply/sync-run.js';
import type { SyncOutcome, SyncSubject } from './apply/sync-subject.js';
import { ProductReader } from './product-reader.service.js';
import { SyncApplier } from './sync-applier.service.js';
import { SyncPlanner } from './sync-planner.service.js';
import { type RecordedRun, SyncRecorder } from './sync-recorder.service.js';
import { SyncTurns } from './sync-turns.service.js';

/**
 * ③ Syncs one Shopify product, in its stages: read (the deliveries waiting for it, then the
 * product), plan (what the run does), apply (the catalog made to match), record (the after-sync
 * listeners, the run's record), finish (the deliveries it covered marked done). Each stage is a
 * call into the class that owns it; the run takes its turn first (`SyncTurns`: the catalog not
 * paused, the mapping checked, the product's lock).
 */
@Processor(QueueName.SYNC_PRODUCT, WORKER_OPTIONS)
export class SyncProductJob extends WorkerHost implements OnApplicationBootstrap {
  constructor(
    private readonly turns: SyncTurns,
    private readonly deliveries: PendingDeliveries,
    private readonly planner: SyncPlanner,
    private readonly reader: ProductReader,
    private readonly applier: SyncApplier,
    private readonly recorder: SyncRecorder,
  ) {
    super();
  }

  onApplicationBootstrap(): void {
    this.turns.configure(this.worker);
  }

  async process(job: Job<SyncProductPayload>, token?: string): Promise<SyncOutcome> {
    const subject: SyncSubject = { shop: job.data.shop, productId: job.data.productId };
    return this.turns.take(job, token, subject, () =>
      // Read the waiting deliveries; finish: the ones read are marked done with the outcome (intake).
      this.deliveries.cover(subject, (pending) => this.sync(subject, job, token, pending)),
    );
  }

  /** Inside the product's lock: plan, read and apply, record. */
  private async sync(
    subject: SyncSubject,
    job: Job<SyncProductPayload>,
    token: string | undefined,
    pending: PendingDelivery[],
  ): Promise<SyncOutcome> {
    const decision = await this.planner.decide(subject, job.data.reason, pending, job.id ?? null);
    if (decision.kind === 'skip') return decision.outcome;
    if (decision.kind === 'delete' && decision.graceLeft > 0)
      return this.turns.later(job, token, decision.graceLeft);
    const recorded = this.recorder.begin(subject, job);
    try {
      const result =
        decision.kind === 'delete'
          ? await this.applier.remove(subject, recorded.run, 'shopify-delete')
          : await this.readAndApply(recorded, pending, decision.lastSyncedAt);
      await this.recorder.ended(recorded, result);
      return result.outcome;
    } catch (error) {
      await this.recorder.failed(recorded, error);
      throw error;
    }
  }

  /** Reads the product and makes the catalog match it; a product Shopify no longer has is removed. */
  private async readAndApply(
    { subject, run }: RecordedRun,
    pending: PendingDelivery[],
    lastSyncedAt: Date | null,
  ): Promise<SyncResult> {
    const { product, readAt } = await this.reader.read(subject, run, pending, lastSyncedAt);
    run.title = product?.title ?? null;
    if (product === null)
      return { ...(await this.applier.remove(subject, run, 'not-found')), outcome: 'not_found', readAt };
    return { ...(await this.applier.upsert(subject, run, product)), readAt };
  }
}
