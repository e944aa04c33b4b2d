import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Inject, type OnApplicationBootstrap } from '@nestjs/common';
import { DelayedError, type Job } from 'bullmq';
import { CatalogLimits } from '#lib/catalog-contract';
import { Clock } from '#lib/clock';
import { CatalogGate } from '../clients/catalog/catalog-gate.js';
import type { CanonicalProduct } from '../clients/shopify/canonical-product.js';
import { usesExtraSources } from '../clients/shopify/documents/canonical-product.query.js';
import { fetchCanonicalProduct } from '../clients/shopify/fetch-canonical-product.js';
import { ShopifyAdmin } from '../clients/shopify/shopify-admin.service.js';
import { SYNC_HOOKS } from '../connector.tokens.js';
import { InboxRepository, type PendingDelivery } from '../intake/inbox.repository.js';
import { ShopMappings } from '../mapping/shop-mappings.js';
import { MediaSettings, SyncSettings } from '../platform/config/settings.js';
import { FailuresService } from '../platform/failures/failures.service.js';
import { jobErrorInfo, jobWaitMs } from '../platform/failures/job-error.js';
import { JobGuard } from '../platform/failures/job-guard.js';
import type { SyncProductPayload } from '../platform/queues/job-payloads.js';
import { QueueName } from '../platform/queues/queue-names.js';
import { WORKER_OPTIONS } from '../platform/queues/worker-options.js';
import { CatalogSyncSteps } from './apply/catalog-sync-steps.js';
import type { SyncApplied, SyncRun } from './apply/sync-run.js';
import type { SyncOutcome, SyncSubject } from './apply/sync-subject.js';
import { ProductLocks } from './product-locks.js';
import { ProductSyncStates } from './product-sync-states.repository.js';
import { ResyncSnapshots } from './resync-snapshots.repository.js';
import { SkuMapRepository } from './sku-map/sku-map.repository.js';
import { SyncEvents } from './sync-events.js';
import type { SyncHooks } from './sync-hooks.js';
import { SyncRecords } from './sync-records.repository.js';
import { triageSync } from './sync-triage.js';

/** What a run did, for its record and the after-sync event. */
interface RunResult {
  outcome: SyncOutcome;
  product: CanonicalProduct | null;
  applied: SyncApplied | null;
  /** When the state the run applied was read (a snapshot's time, or the canonical read's). */
  readAt?: Date;
}

/**
 * ③ Syncs one Shopify product: a webhook is only a notification, so the job reads the product's
 * current state from the Admin API and makes the catalog match it (`CatalogSyncSteps`: plan ->
 * calls -> map). Every run, failed ones too, leaves a sync record with the calls it made.
 */
@Processor(QueueName.SYNC_PRODUCT, WORKER_OPTIONS)
export class SyncProductJob extends WorkerHost implements OnApplicationBootstrap {
  constructor(
    private readonly guard: JobGuard,
    private readonly gate: CatalogGate,
    private readonly mappings: ShopMappings,
    private readonly locks: ProductLocks,
    private readonly inbox: InboxRepository,
    private readonly states: ProductSyncStates,
    private readonly shopify: ShopifyAdmin,
    private readonly records: SyncRecords,
    private readonly events: SyncEvents,
    private readonly steps: CatalogSyncSteps,
    @Inject(SYNC_HOOKS) private readonly hooks: SyncHooks,
    private readonly settings: SyncSettings,
    private readonly clock: Clock,
    private readonly failures: FailuresService,
    private readonly snapshots: ResyncSnapshots,
    private readonly skuMap: SkuMapRepository,
    private readonly media: MediaSettings,
  ) {
    super();
  }

  onApplicationBootstrap(): void {
    this.worker.concurrency = this.settings.concurrency;
  }

  /** The whole flow: wait out a paused catalog or a mapping not checked yet, take the product's lock, sync. */
  async process(job: Job<SyncProductPayload>, token?: string): Promise<SyncOutcome> {
    const subject: SyncSubject = { shop: job.data.shop, productId: job.data.productId };
    return this.guard.run(job, token, { shop: subject.shop, key: subject.productId }, async () => {
      const pausedFor = this.gate.waitFor(subject.shop);
      if (pausedFor !== null) return this.guard.delay(job, token, pausedFor);
      const mappingPendingFor = this.mappings.waitFor(subject.shop);
      if (mappingPendingFor !== null) return this.guard.delay(job, token, mappingPendingFor);
      return this.locks.withLock(
        subject,
        () => this.sync(subject, job, token),
        () => {
          this.hooks.lockBusy(subject);
          return this.guard.delay(job, token, this.settings.lockRetryMs);
        },
      );
    });
  }

  /** Inside the lock: triage the waiting deliveries, read Shopify, apply, record, mark them done. */
  private async sync(
    subject: SyncSubject,
    job: Job<SyncProductPayload>,
    token?: string,
  ): Promise<SyncOutcome> {
    this.hooks.runStarted(subject);
    const pending = await this.inbox.pendingFor(subject.shop, subject.productId);
    const state = await this.states.get(subject);
    let triage = triageSync(job.data.reason, pending, state);
    // A resync's request deduplicated into this (webhook or sweep) job while it waited: the run
    // waits for a read of the product, so the job reads it as the resync's own job would.
    if (triage.kind === 'skip' && triage.outcome !== 'tombstoned' && (await this.events.awaited(subject)))
      triage = triageSync('resync', pending, state);
    if (triage.kind === 'skip') {
      // Deleted for good (tombstoned) after a running resync listed it: the run hears it is gone,
      // or it would wait for the product for ever (no read could report it).
      if (triage.outcome === 'tombstoned' && (await this.events.awaited(subject)))
        await this.events.emitSynced({
          ...subject,
          outcome: 'tombstoned',
          product: null,
          jobId: job.id ?? null,
        });
      return this.finish(subject, pending, triage.outcome);
    }
    if (triage.kind === 'delete') {
      const graceLeft = this.deleteGraceLeft(pending);
      if (graceLeft > 0) return this.guard.delay(job, token, graceLeft);
    }
    const run = this.newRun(subject, job);
    const startedAt = new Date(this.clock.now());
    try {
      const result =
        triage.kind === 'delete'
          ? await this.remove(subject, run, 'shopify-delete')
          : await this.upsert(subject, run, pending);
      await this.events.emitSynced({
        ...subject,
        outcome: result.outcome,
        product: result.product,
        jobId: job.id ?? null,
      });
      await this.record(subject, job, run, startedAt, result.outcome, result.applied?.detail ?? null, null);
      // The run's read supersedes the resync snapshots taken before it.
      await this.snapshots.remove(subject, result.readAt ?? startedAt);
      // The product is in step now: an open failure of its sync needs no replay any more.
      await this.failures.resolveSucceeded(subject.shop, job.name, [subject.productId]);
      return this.finish(subject, pending, result.outcome);
    } catch (error) {
      // A shop without a token only waits (the guard delays the job): no failed run to record.
      if (!(error instanceof DelayedError) && jobWaitMs(error) === null) {
        const { code, message } = jobErrorInfo(error);
        await this.record(subject, job, run, startedAt, 'failed', null, { code, message });
        // A failed run's snapshot goes too: its retry (or a later resync) reads the product anew.
        await this.snapshots.remove(subject, new Date(this.clock.now()));
      }
      throw error;
    }
  }

  /** Reads the product and makes the catalog match it; a product Shopify no longer has is removed. */
  private async upsert(subject: SyncSubject, run: SyncRun, pending: PendingDelivery[]): Promise<RunResult> {
    const { product, readAt } = await this.read(subject, run, pending);
    await this.hooks.afterShopifyRead(subject);
    if (product === null)
      return { ...(await this.remove(subject, run, 'not-found')), outcome: 'not_found', readAt };
    const applied = await this.steps.apply(subject, { kind: 'upsert', product }, run);
    await this.states.applied(subject, product.updatedAt);
    return { outcome: 'synced', product, applied, readAt };
  }

  /**
   * The product's current state: a resync's sync plans from the snapshot its bulk read took,
   * unless something about the product arrived since that read began (a delivery waiting, or a
   * sync that ran after it), or the shop's mapping reads metafields, the category or collections
   * (the bulk query does not hold them: planning from it would clear those attributes);
   * otherwise, and for every other reason, the canonical read.
   */
  private async read(
    subject: SyncSubject,
    run: SyncRun,
    pending: PendingDelivery[],
  ): Promise<{ product: CanonicalProduct | null; readAt: Date }> {
    const sources = this.mappings.mapping(subject.shop)?.sources;
    const snapshotHoldsSources = sources === undefined || !usesExtraSources(sources);
    if (run.reason === 'resync' && !snapshotHoldsSources)
      run.events.push(
        'the mapping reads metafields, the category or collections: no bulk snapshot holds them',
      );
    if (run.reason === 'resync' && snapshotHoldsSources) {
      const snapshot = await this.snapshots.latest(subject);
      // A bulk snapshot holds no option value ids: a product over 200 variants is read afresh.
      if (snapshot !== null && snapshot.product.variantsCount <= CatalogLimits.VARIANTS_PER_PARENT) {
        const after = snapshot.snapshotAt.getTime();
        const lastSynced = (await this.states.get(subject))?.lastSyncedAt ?? null;
        const newer =
          pending.some((d) => d.receivedAt.getTime() > after) ||
          (lastSynced !== null && lastSynced.getTime() > after);
        if (!newer) {
          run.events.push(`planned from the bulk read of resync run ${snapshot.runId}`);
          return { product: snapshot.product, readAt: snapshot.snapshotAt };
        }
      }
    }
    const readAt = new Date(this.clock.now());
    // Only what the sync needs: the variants last synced (plus a few), the media when that stage is on.
    const read = await fetchCanonicalProduct(this.shopify.forShop(subject.shop), subject.productId, {
      expectedVariants: await this.skuMap.variantCount(subject.shop, subject.productId),
      media: this.media.enabled,
      ...(sources ? { sources } : {}),
      allVariants: this.settings.largeProducts === 'split',
    });
    run.events.push(`read from Shopify (requested cost ${read.requestedCost} points)`);
    return { product: read.product, readAt };
  }

  /** Deletes the product's records, then tombstones it (only once the deletes succeeded). */
  private async remove(
    subject: SyncSubject,
    run: SyncRun,
    cause: 'shopify-delete' | 'not-found',
  ): Promise<RunResult> {
    const applied = await this.steps.apply(subject, { kind: 'delete', cause }, run);
    await this.states.tombstone(subject);
    return { outcome: 'deleted', product: null, applied };
  }

  /** How long a `products/delete` still waits (the configured grace, from its first delivery). */
  private deleteGraceLeft(pending: PendingDelivery[]): number {
    const grace = this.settings.deleteGraceMs;
    if (grace <= 0) return 0;
    const deletes = pending.filter((d) => d.topic === 'products/delete').map((d) => d.receivedAt.getTime());
    if (deletes.length === 0) return 0;
    return Math.max(0, Math.min(...deletes) + grace - this.clock.now());
  }

  private newRun(subject: SyncSubject, job: Job<SyncProductPayload>): SyncRun {
    return {
      jobId: job.id ?? null,
      reason: job.data.reason,
      calls: [],
      events: [],
      afterCatalogCreate: (supplierSku) => this.hooks.afterCatalogCreate(subject, supplierSku),
    };
  }

  private async record(
    subject: SyncSubject,
    job: Job<SyncProductPayload>,
    run: SyncRun,
    startedAt: Date,
    outcome: string,
    detail: string | null,
    error: { code: string; message: string } | null,
  ): Promise<void> {
    await this.records.add({
      ...subject,
      jobId: job.id ?? null,
      reason: job.data.reason,
      outcome,
      detail,
      calls: run.calls,
      events: run.events,
      error,
      startedAt,
      finishedAt: new Date(this.clock.now()),
    });
  }

  /** Marks the deliveries this run covered (read before the Shopify query) as done. */
  private async finish(
    subject: SyncSubject,
    covered: PendingDelivery[],
    outcome: SyncOutcome,
  ): Promise<SyncOutcome> {
    await this.inbox.complete(
      covered.map((delivery) => delivery.id),
      outcome,
      new Date(this.clock.now()),
    );
    this.hooks.runEnded(subject, outcome);
    return outcome;
  }
}
