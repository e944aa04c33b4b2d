import { Processor, WorkerHost } from '@nestjs/bullmq';
import { type OnApplicationBootstrap } from '@nestjs/common';
import type { Job } from 'bullmq';
import { CatalogGate } from '../clients/catalog/catalog-gate.service.js';
import { MediaSettings } from '../platform/config/settings.js';
import { FailuresService } from '../platform/failures/failures.service.js';
import { JobGuard } from '../platform/failures/job-guard.service.js';
import type { SyncMediaPayload } from '../platform/queues/job-payloads.js';
import { JobName, QueueName } from '../platform/queues/queue-names.js';
import { WORKER_OPTIONS } from '../platform/queues/worker-options.js';
import type { MediaError } from './model/media-error.js';
import { ProductMediaRunner } from './run/product-media-runner.service.js';
import type { MediaSyncResult } from './run/sync-product-media.js';
import type { StoredImageFailure } from './store/media-product-status.entity.js';
import { MediaStatusRepository } from './store/media-status.repository.js';

/** How a media job ended (its BullMQ return value). */
export type SyncMediaOutcome = 'done' | 'disabled' | 'not-found' | 'no-records' | 'shadow';

/**
 * A product's images into its catalog records' `media`, as a job of its own after the attribute
 * sync (never inside it: processing takes minutes). Per image, what cannot be fixed by waiting
 * (unfetchable, wrong format, refused) lands in the failures table at once and the rest of the
 * gallery still syncs; what may pass later (record not created yet, URL expired, processing not
 * finished, catalog unavailable) runs the job again after `retryLaterMs`, up to `retryLaterMax`
 * times, and then lands there too. The product's notes (a foreign gallery replaced...) are stored.
 */
@Processor(QueueName.SYNC_MEDIA, WORKER_OPTIONS)
export class SyncMediaJob extends WorkerHost implements OnApplicationBootstrap {
  constructor(
    private readonly guard: JobGuard,
    private readonly gate: CatalogGate,
    private readonly runner: ProductMediaRunner,
    private readonly failures: FailuresService,
    private readonly statuses: MediaStatusRepository,
    private readonly settings: MediaSettings,
  ) {
    super();
  }

  onApplicationBootstrap(): void {
    this.worker.concurrency = this.settings.concurrency;
  }

  async process(job: Job<SyncMediaPayload>, token?: string): Promise<SyncMediaOutcome> {
    const { shop, productId } = job.data;
    return this.guard.run(job, token, { shop, key: productId }, async () => {
      if (!this.settings.enabled) return 'disabled';
      const pausedFor = this.gate.waitFor(shop);
      if (pausedFor !== null) return this.guard.delay(job, token, pausedFor);
      const run = await this.runner.run(shop, productId);
      // Shadow: planned, nothing sent, no status stored (the first live sync runs the media).
      if (run.kind !== 'done') return run.kind;
      const laterRuns = job.data.laterRuns ?? 0;
      const later = run.result.retryLater && laterRuns < this.settings.retryLaterMax;
      // Failures first, the status last: whoever sees this run's status sees its failures settled.
      await this.recordFailures(job.data, run.result, later);
      await this.resolveSynced(job, run.mediaIds, run.result);
      await this.statuses.record({
        shop,
        productId,
        notes: run.result.notes,
        imageFailures: run.result.imageFailures.map(
          (f): StoredImageFailure => ({ mediaId: f.mediaId, stage: f.stage, ...errorFields(f.error) }),
        ),
        images: run.images,
        uploads: run.result.uploads.length,
        writes: run.result.writes.length,
      });
      if (!later) return 'done';
      await job.updateData({ ...job.data, laterRuns: laterRuns + 1 });
      return this.guard.delay(job, token, this.settings.retryLaterMs);
    });
  }

  /**
   * An image with an open failure that this run synced (it is in the product and did not fail)
   * needs no replay any more: its failure is resolved, as a replay would have.
   */
  private async resolveSynced(
    job: Job<SyncMediaPayload>,
    mediaIds: readonly string[],
    result: MediaSyncResult,
  ): Promise<void> {
    const { shop, productId } = job.data;
    const failed = new Set(result.imageFailures.map((f) => f.mediaId));
    const synced = mediaIds.filter((id) => !failed.has(id)).map((id) => `${productId}:${id}`);
    const by = `${JobName.SYNC_MEDIA} job ${job.id ?? 'unknown'}`;
    await this.failures.resolveSucceeded(shop, JobName.SYNC_MEDIA, synced, by);
  }

  /** Permanent failures now; retryable ones once the job will not run again for them. */
  private async recordFailures(
    data: SyncMediaPayload,
    result: MediaSyncResult,
    later: boolean,
  ): Promise<void> {
    const { shop, productId } = data;
    const due = (error: MediaError) => !error.retryable || !later;
    for (const failure of result.imageFailures.filter((f) => due(f.error))) {
      await this.failures.record({
        shop,
        jobKind: JobName.SYNC_MEDIA,
        subjectKey: `${productId}:${failure.mediaId}`,
        payload: {
          shop,
          productId,
          mediaId: failure.mediaId,
          stage: failure.stage,
          details: failure.error.details,
        },
        error: errorFields(failure.error),
        attempts: 1,
      });
    }
    for (const failure of result.recordFailures.filter((f) => due(f.error))) {
      await this.failures.record({
        shop,
        jobKind: JobName.SYNC_MEDIA,
        subjectKey: `${productId}:${failure.skuId}`,
        payload: { shop, productId, skuId: failure.skuId, supplierSku: failure.supplierSku },
        error: errorFields(failure.error),
        attempts: 1,
      });
    }
  }
}

function errorFields(error: MediaError): { code: string; message: string; retryable: boolean } {
  return { code: error.code, message: error.message, retryable: error.retryable };
}
