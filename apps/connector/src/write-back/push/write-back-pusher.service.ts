import { Injectable } from '@nestjs/common';
import type { ProductRecord } from '#lib/catalog-contract';
import { Clock } from '#lib/clock';
import { CatalogClients } from '../../clients/catalog/catalog-clients.service.js';
import { WRITE_BACK_MUTATION_COST } from '../../clients/shopify/write-back-calls.js';
import type { ResolvedWriteBackEntry } from '../../mapping/index.js';
import { EnrichmentSettings } from '../../platform/config/settings.js';
import { PermanentJobError } from '../../platform/failures/job-error.js';
import {
  type PlannedWrite as PlannedRow,
  PlannedWritesRepository,
} from '../../product-sync/planned/planned-writes.repository.js';
import { SkuMapRepository } from '../../product-sync/sku-map/sku-map.repository.js';
import { ShopModes } from '../../shops/shop-modes.service.js';
import { editsInBetween } from '../decide/edits-in-between.js';
import { planWriteBack } from '../decide/plan-write-back.js';
import { emptyPlan } from '../decide/write-back-plan.js';
import { type ShopifyProductState, stateKey, type WriteBackSubject } from '../decide/write-back-state.js';
import type { QueryCost } from '../shopify/admin-graphql.js';
import { buildMutations } from '../shopify/build-mutations.js';
import { executeWriteBack, type WriteOutcome } from '../shopify/execute-write-back.js';
import { fetchWriteBackState } from '../shopify/fetch-write-back-state.js';
import { EnrichmentOutbox } from '../store/enrichment-outbox.repository.js';
import { type RecordSnapshot, recordsFromSnapshot } from '../store/record-snapshot.js';
import { WriteBackStates } from '../store/write-back-states.repository.js';
import { plannedWriteBacks, WRITE_BACK_SOURCE } from './planned-write-backs.js';
import { outcomeRecords, planRecords } from './push-records.js';
import type { PushSubject } from './push-subject.js';
import { ShopGraphql } from './shop-graphql.service.js';

/** What one push run did. */
export interface PushSummary {
  written: number;
  settled: number;
  conflicts: number;
  skipped: number;
  failed: number;
  /** A dry run or a shop in `shadow`: the mutations a live push would send, none sent. */
  planned?: PlannedRow[];
}

/** Writes that may land on a later run (no answer, throttled, a stale digest): the job retries. */
export class PushRetryError extends Error {
  readonly code = 'write_back_retry';
  readonly retryable = true;
}

/**
 * One product's write-back, run inside the product's lock: read both sides (the product's
 * catalog records through the sku map: as the poll that found the work read them when it stored
 * them, else one search; its targets in Shopify), plan, commit the intents, read the targets
 * again (a merchant's edit since the first read wins: `editsInBetween`), write,
 * commit the outcomes and the push history. Exactly once: an intent committed before a crash is
 * settled by the next run (Shopify shows whether it landed) or written then; metafields are
 * written with `compareDigest`. Shopify's `userErrors` end the job as a failure with their
 * messages; writes without an answer are retried.
 */
@Injectable()
export class WriteBackPusher {
  constructor(
    private readonly skuMap: SkuMapRepository,
    private readonly clients: CatalogClients,
    private readonly graphql: ShopGraphql,
    private readonly states: WriteBackStates,
    private readonly outbox: EnrichmentOutbox,
    private readonly clock: Clock,
    private readonly settings: EnrichmentSettings,
    private readonly modes: ShopModes,
    private readonly plannedWrites: PlannedWritesRepository,
  ) {}

  async push(
    subject: PushSubject,
    entries: readonly ResolvedWriteBackEntry[],
    jobId: string | null,
    /** Attributes an operator lets overwrite a merchant's edit this once (empty: all); none by default. */
    overwrite?: readonly string[],
    /** Plan only: return the mutations a live push would send, store and send nothing. */
    dryRun = false,
  ): Promise<PushSummary> {
    const work = await this.outbox.pendingWork(subject.shop, subject.productId);
    const upTo = work?.id ?? null;
    const done = async () => {
      if (upTo !== null) await this.outbox.markDone(subject.shop, subject.productId, upTo);
    };
    const summary: PushSummary = { written: 0, settled: 0, conflicts: 0, skipped: 0, failed: 0 };
    const graphql = this.graphql.forShop(subject.shop);
    const pacing = this.graphql.pacing();
    // An operator's overwrite reads the catalog as it is now, whatever a poll stored.
    const snapshot = overwrite === undefined ? work?.records : null;
    const mapped = await this.subjectOf(subject, entries, snapshot);
    // The bucket as the last answer left it: the read right before the write paces by it.
    const costs: { last?: QueryCost } = {};
    const shopify =
      mapped && (await fetchWriteBackState(graphql, mapped.subject.productId, entries, { ...pacing, costs }));
    if (!mapped || !shopify) {
      if (!dryRun) await done();
      return dryRun ? { ...summary, planned: [] } : summary;
    }
    const catalogSide = mapped.simple ? withItsVariant(mapped.subject, shopify) : mapped.subject;
    const states = await this.states.forProduct(subject.shop, subject.productId);
    const overrides = new Set(
      overwrite === undefined
        ? []
        : states
            .filter(
              (s) =>
                s.status === 'merchant-owned' && (overwrite.length === 0 || overwrite.includes(s.attribute)),
            )
            .map((s) => stateKey(s.ownerId, s.attribute, s.target)),
    );
    const plan = planWriteBack({ subject: catalogSide, entries, states, shopify, overrides });
    if (dryRun || (await this.modes.modeOf(subject.shop)) === 'shadow') {
      // Nothing sent and no push state stored (no intent, no conflict): going live plans again.
      const planned = plannedWriteBacks(buildMutations(catalogSide.productId, plan.writes), plan, shopify);
      if (!dryRun) await this.keepPlanned(subject, planned).then(done);
      const { conflicts, skipped, failures } = plan;
      const counts = { conflicts: conflicts.length, skipped: skipped.length, failed: failures.length };
      return { ...summary, ...counts, planned };
    }
    // Live: what a shadow push planned for the product is superseded by this push.
    await this.keepPlanned(subject, []);
    await this.states.save(subject.shop, subject.productId, planRecords(plan), jobId);
    summary.settled = plan.settled.length;
    summary.conflicts = plan.conflicts.length;
    summary.skipped = plan.skipped.length;
    summary.failed = plan.failures.length;
    let writes = plan.writes;
    if (writes.length > 0) {
      // Read again right before the write, inside the pacing (the read waits until the bucket
      // holds the first mutation too, so the write follows at once): a merchant's edit since the
      // plan's read wins; what remains is the one round trip between this read and the write.
      // It reads what the writes go to (`editsInBetween` compares nothing else): the variants
      // only when a write goes to one, so a push that writes none reads them once.
      const toVariant = writes.some((w) => w.ref.ownerId !== catalogSide.productId);
      const targets = toVariant ? entries : entries.filter((e) => e.level === 'product');
      const fresh = await fetchWriteBackState(graphql, catalogSide.productId, targets, {
        ...pacing,
        costs,
        reserve: WRITE_BACK_MUTATION_COST,
      });
      if (!fresh) {
        await done();
        return summary;
      }
      const between = editsInBetween(writes, shopify, fresh);
      if (between.conflicts.length > 0) {
        const { states: owned, history } = planRecords({
          ...emptyPlan(plan.productId),
          conflicts: between.conflicts,
        });
        await this.states.save(subject.shop, subject.productId, { states: owned, history }, jobId);
        summary.conflicts += between.conflicts.length;
      }
      writes = between.keep;
    }
    const { outcomes } = await executeWriteBack(
      writes,
      buildMutations(catalogSide.productId, writes),
      graphql,
      {
        ...pacing,
        ...(costs.last ? { lastCost: costs.last } : {}),
      },
    );
    await this.states.save(subject.shop, subject.productId, outcomeRecords(outcomes), jobId);
    summary.written = outcomes.filter((o) => o.ok).length;
    const retry = outcomes.filter((o) => !o.ok && o.kind !== 'rejected');
    if (retry.length > 0)
      throw new PushRetryError(
        `${retry.length} write(s) to product ${subject.productId} not confirmed: ${errorsOf(retry).join('; ')}`,
      );
    await done();
    const rejected = outcomes.filter((o) => !o.ok);
    summary.failed += rejected.length;
    if (rejected.length > 0 || plan.failures.length > 0) {
      const messages = [
        ...errorsOf(rejected),
        ...plan.failures.map((f) => `${f.ref.path} (${f.ref.ownerId}): ${f.reason}`),
      ];
      throw new PermanentJobError(
        'write_back_rejected',
        `Write-back of product ${subject.productId}: ${messages.join('; ')}`.slice(0, 2_000),
      );
    }
    return summary;
  }

  /** In `shadow`: the push's plan replaces the product's planned write-backs (none: cleared). */
  private keepPlanned(subject: PushSubject, planned: readonly PlannedRow[]): Promise<void> {
    const at = new Date(this.clock.now());
    return this.plannedWrites.replace(subject.shop, subject.productId, WRITE_BACK_SOURCE, planned, at);
  }

  /**
   * The product's catalog records (through the sku map), or null when the connector mapped none:
   * from the poll's snapshot when it is fresh and covers them (`recordsFromSnapshot`), else one
   * `skuId` `$in` search. A snapshot is as current as the poll that stored it: a change the next
   * poll finds gives new work with a new snapshot (the newest pending row's is used), and what
   * was pushed is never pushed again (push states), so an older value at most makes one more
   * write, correcting itself; a review no poll sees (the spec promises none moves `updatedAt`)
   * is why a snapshot ages out (`CONNECTOR_ENRICHMENT_SNAPSHOT_MAX_AGE_MS`).
   */
  private async subjectOf(
    subject: PushSubject,
    entries: readonly ResolvedWriteBackEntry[],
    snapshot: RecordSnapshot | null | undefined,
  ): Promise<{ subject: WriteBackSubject; simple: boolean } | null> {
    const rows = (await this.skuMap.rowsOfProduct(subject.shop, subject.productId)).filter(
      (r) => r.state === 'live' && r.skuId !== null,
    );
    // A product split into groups (over 200 variants) has several parents, all holding the same
    // product-level values: product-level targets are written from the first one mapped (lowest
    // row id: the first group created, the group of the product's first variant when it was split).
    // Variant-level targets come from every group's variants.
    const own = rows.find((r) => r.shopifyVariantId === null);
    if (!own) return null;
    const skuIds = rows.map((r) => r.skuId as string);
    const records =
      recordsFromSnapshot(snapshot, {
        skuIds,
        attributes: entries.map((e) => e.attribute),
        now: this.clock.now(),
        maxAgeMs: this.settings.snapshotMaxAgeMs,
      }) ?? (await this.search(subject.shop, skuIds));
    const productId = `gid://shopify/Product/${subject.productId}`;
    const record = records.get(own.skuId as string) ?? null;
    const variants = rows
      .filter((r) => r.shopifyVariantId !== null)
      .map((r) => ({
        variantId: `gid://shopify/ProductVariant/${r.shopifyVariantId}`,
        record: records.get(r.skuId as string) ?? null,
      }));
    // A simple product's one variant carries the simple record: the sku map has no row for it
    // (its id comes from the push's read of Shopify, `withItsVariant`).
    return {
      subject: { productId, record, variants },
      simple: own.kind === 'simple' && variants.length === 0,
    };
  }

  /** The records of `skuIds`, 500 per search (a split product has up to 2,048 variants and 12 parents). */
  private async search(shop: string, skuIds: readonly string[]): Promise<Map<string, ProductRecord>> {
    const { client } = this.clients.forShop(shop);
    const found = new Map<string, ProductRecord>();
    for (let i = 0; i < skuIds.length; i += SEARCH_PAGE) {
      const answer = await client.searchProducts({
        filter: { skuId: { $in: skuIds.slice(i, i + SEARCH_PAGE) } },
        pagination: { limit: SEARCH_PAGE, offset: 0 },
      });
      for (const record of answer.products) found.set(record.skuId, record);
    }
    return found;
  }
}

/** The catalog's largest search page (`pagination.limit` at most 500). */
const SEARCH_PAGE = 500;

/**
 * A simple product's subject with its one variant, which carries the simple record: its id is
 * the first the push's read of the variants found (none read when no variant entries exist).
 */
function withItsVariant(subject: WriteBackSubject, shopify: ShopifyProductState): WriteBackSubject {
  const variantId = shopify.variantIds[0];
  return variantId === undefined
    ? subject
    : { ...subject, variants: [{ variantId, record: subject.record }] };
}

function errorsOf(outcomes: readonly WriteOutcome[]): string[] {
  return outcomes.flatMap((o) =>
    o.ok ? [] : [`${o.write.ref.path} (${o.write.ref.ownerId}): ${o.errors.join(', ')}`],
  );
}
