import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Inject, type OnApplicationBootstrap } from '@nestjs/common';
import type { Job } from 'bullmq';
import { Clock } from '#lib/clock';
import { CatalogGate } from '../catalog/catalog-gate.js';
import type { ConnectorConfig } from '../config/connector.config.js';
import { CONNECTOR_CONFIG, SYNC_HOOKS, SYNC_STEPS } from '../connector.tokens.js';
import { JobGuard } from '../failures/job-guard.js';
import { InboxRepository, type PendingDelivery } from '../inbox/inbox.repository.js';
import { ShopMappings } from '../mapping/shop-mappings.js';
import type { SyncProductPayload } from '../queues/job-payloads.js';
import { QueueName } from '../queues/queue-names.js';
import { readProduct } from '../shopify/product-read.js';
import { ShopifyAdmin } from '../shopify/shopify-admin.service.js';
import { ProductLocks } from './product-locks.js';
import { ProductSyncStates } from './product-sync-states.js';
import type { SyncHooks } from './sync-hooks.js';
import type { SyncChange, SyncSteps } from './sync-steps.js';
import type { SyncOutcome, SyncSubject } from './sync-subject.js';
import { triageSync } from './sync-triage.js';

/**
 * ③ Syncs one Shopify product: a webhook is only a notification, so the job reads the product's
 * current state from the Admin API and makes the catalog match it (plan -> calls -> map).
 */
@Processor(QueueName.SYNC_PRODUCT)
export class SyncProductJob extends WorkerHost implements OnApplicationBootstrap {
  constructor(
    private readonly guard: JobGuard,
    private readonly gate: CatalogGate,
    private readonly mappings: ShopMappings,
    private readonly locks: ProductLocks,
    private readonly inbox: InboxRepository,
    private readonly states: ProductSyncStates,
    private readonly shopify: ShopifyAdmin,
    @Inject(SYNC_STEPS) private readonly steps: SyncSteps,
    @Inject(SYNC_HOOKS) private readonly hooks: SyncHooks,
    @Inject(CONNECTOR_CONFIG) private readonly config: ConnectorConfig,
    private readonly clock: Clock,
  ) {
    super();
  }

  onApplicationBootstrap(): void {
    this.worker.concurrency = this.config.sync.concurrency;
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
        () => this.sync(subject, job.data),
        () => {
          this.hooks.lockBusy(subject);
          return this.guard.delay(job, token, this.config.sync.lockRetryMs);
        },
      );
    });
  }

  /** Inside the lock: triage the waiting deliveries, read Shopify, apply, mark them done. */
  private async sync(subject: SyncSubject, payload: SyncProductPayload): Promise<SyncOutcome> {
    this.hooks.runStarted(subject);
    const pending = await this.inbox.pendingFor(subject.shop, subject.productId);
    const triage = triageSync(payload.reason, pending, await this.states.get(subject));
    if (triage.kind === 'skip') return this.finish(subject, pending, triage.outcome);
    if (triage.kind === 'delete') {
      await this.states.tombstone(subject);
      await this.apply(subject, { kind: 'delete' });
      return this.finish(subject, pending, 'deleted');
    }
    const product = await readProduct(this.shopify.forShop(subject.shop), subject.productId);
    await this.hooks.afterShopifyRead(subject);
    if (product === null) return this.finish(subject, pending, 'not_found');
    await this.apply(subject, { kind: 'upsert', product });
    await this.states.applied(subject, product.updatedAt);
    return this.finish(subject, pending, 'synced');
  }

  /** The catalog side: plan the minimal calls, make them, record the map. */
  private async apply(subject: SyncSubject, change: SyncChange): Promise<void> {
    const plan = await this.steps.plan(subject, change);
    const results = await this.steps.execute(subject, plan);
    await this.steps.record(subject, change, results);
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
