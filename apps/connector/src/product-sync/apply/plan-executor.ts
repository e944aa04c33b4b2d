import { type CatalogClient, isCatalogClientError } from '#lib/catalog-client';
import type { CatalogCall, PlanNote, PlannedRecord, SyncPlan } from '../plan/index.js';
import { routeOf } from '../plan/index.js';
import type { SkuMapRepository } from '../sku-map/sku-map.repository.js';
import type { SkuMapRow } from '../sku-map/sku-map-row.entity.js';
import { checkReplacedParent } from './replaced-parent-check.js';
import type { SyncRun } from './sync-run.js';
import type { SyncSubject } from './sync-subject.js';

/**
 * A PATCH answered 404 (or a variant create `parent_not_found`): the record was deleted in the
 * catalog behind the connector.
 */
export class RecordGone extends Error {
  constructor(
    readonly supplierSku: string,
    readonly skuId: string,
  ) {
    super(`record ${supplierSku} (skuId ${skuId}) is gone from the catalog`);
    this.name = 'RecordGone';
  }
}

/** What a plan's deletes do to the map rows: tombstone them for good, or forget them (status policy). */
export type DeletedRows = 'tombstone' | 'forget';

/** Everything one execution needs. */
export interface ExecutionContext {
  subject: SyncSubject;
  run: SyncRun;
  client: CatalogClient;
  map: SkuMapRepository;
  /** The product's rows as they were before the plan (to skip map writes that change nothing). */
  rows: readonly SkuMapRow[];
  /** Notes for the product's own row (its status shows them). */
  notes: readonly PlanNote[];
  deletedRows: DeletedRows;
}

/** Variant creates of one product in flight at once (each still waits for the catalog budget). */
const VARIANT_CREATES_IN_FLIGHT = 8;

/**
 * Why: crash safety lives in the order of writes, so one place makes a plan's calls. A create is
 * preceded by its committed intent (`pending-create`) and followed by `markLive`; a pending row is
 * created with `lookupFirst`, so a retry after a crash adopts the record instead of duplicating
 * it (and then re-sends every attribute, since what the adopted record holds is unknown); an
 * ambiguous create is adopted or fails, never POSTed twice. Each call lands in the run's record.
 * Calls go in the plan's order, except that the variant creates the plan ends with (their
 * parent exists by then) go a few at a time, each with its own intent and `markLive`: a new
 * product's creates fill the catalog budget instead of waiting on each other's round trips.
 * When one fails, the others still finish (and are mapped) before the run fails.
 */
export async function executePlan(plan: SyncPlan, context: ExecutionContext): Promise<void> {
  const planned = new Map(plan.records.map((record) => [record.supplierSku, record]));
  const touched = new Set<string>();
  const execute = (call: CatalogCall) => {
    const record = planned.get(call.record.supplierSku) as PlannedRecord;
    touched.add(record.supplierSku);
    return executeCall(call, record, context, plan);
  };
  for (let i = 0; i < plan.calls.length; ) {
    let end = i;
    while (plan.calls[end]?.kind === 'createVariant') end++;
    if (end - i > 1) {
      await allSettledInOrder(plan.calls.slice(i, end), VARIANT_CREATES_IN_FLIGHT, execute);
      i = end;
    } else {
      await execute(plan.calls[i] as CatalogCall);
      i++;
    }
  }
  for (const record of plan.records) {
    if (touched.has(record.supplierSku) || record.action !== 'unchanged') continue;
    const row = context.rows.find((r) => r.supplierSku === record.supplierSku);
    const own = record.shopifyVariantId === null;
    if (row && !own && !differs(row, record)) continue;
    await context.map.saveSnapshot(context.subject.shop, record.supplierSku, applied(record, context, own));
  }
}

async function executeCall(
  call: CatalogCall,
  record: PlannedRecord,
  context: ExecutionContext,
  plan: SyncPlan,
): Promise<void> {
  const { subject, client, map, run } = context;
  const own = record.shopifyVariantId === null;
  switch (call.kind) {
    case 'createProduct':
    case 'createVariant': {
      await map.recordIntent({
        shop: subject.shop,
        productId: subject.productId,
        kind: record.kind,
        shopifyVariantId: record.shopifyVariantId,
        supplierSku: record.supplierSku,
        parentSupplierSku: own ? null : record.parentSupplierSku,
        variantGroup: record.variantGroup ?? null,
      });
      const options = { lookupFirst: call.lookupFirst, onAmbiguous: 'adopt-or-throw' as const };
      let created: { skuId: string };
      try {
        created = await traced(run, call, () =>
          call.kind === 'createProduct'
            ? client.createProduct(call.body, options)
            : client.createVariant(call.body, options),
        );
      } catch (error) {
        // parent_not_found: the parent was deleted in the catalog behind the connector.
        const parent = plan.records.find(
          (r) =>
            r.shopifyVariantId === null &&
            call.kind === 'createVariant' &&
            r.supplierSku === call.body.parentSupplierSku,
        );
        if (
          call.kind === 'createVariant' &&
          isCatalogClientError(error) &&
          error.status === 404 &&
          parent?.skuId
        ) {
          await markGone(context, parent, plan, call);
          throw new RecordGone(parent.supplierSku, parent.skuId);
        }
        throw error;
      }
      // A record found by its supplierSku after a crash holds whatever was sent then: store no
      // snapshot, so the next plan sends every attribute again.
      const state = call.lookupFirst ? { ...record, snapshot: {} } : record;
      await map.markLive(subject.shop, record.supplierSku, created.skuId, applied(state, context, own));
      if (call.lookupFirst)
        run.events.push(`${record.supplierSku}: a pending create was resolved (skuId ${created.skuId})`);
      return;
    }
    case 'updateProduct':
    case 'updateVariant': {
      try {
        await traced(run, call, () =>
          call.kind === 'updateProduct'
            ? client.updateProductBySkuId(call.skuId, call.body)
            : client.updateVariant(call.skuId, call.body),
        );
      } catch (error) {
        if (isCatalogClientError(error) && error.status === 404) {
          await markGone(context, record, plan, call);
          throw new RecordGone(record.supplierSku, call.skuId);
        }
        throw error;
      }
      await map.saveSnapshot(subject.shop, record.supplierSku, applied(record, context, own));
      return;
    }
    case 'deleteVariant':
    case 'deleteProduct': {
      if (record.removeRow) await checkReplacedParent(map, subject, record);
      const skuIds = call.skuId
        ? [call.skuId]
        : (
            await traced(
              run,
              call,
              () => client.findBySupplierSku(record.supplierSku),
              'POST',
              '/v1/products/search',
            )
          ).map((found) => found.skuId);
      for (const skuId of skuIds) {
        const path = call.kind === 'deleteVariant' ? `/v1/variants/${skuId}` : `/v1/products/${skuId}`;
        try {
          await traced(
            run,
            call,
            () => (call.kind === 'deleteVariant' ? client.deleteVariant(skuId) : client.deleteProduct(skuId)),
            'DELETE',
            path,
          );
        } catch (error) {
          // Already gone (deleted in the catalog behind the connector): what the delete wanted.
          if (!isCatalogClientError(error) || error.status !== 404) throw error;
          run.events.push(`${record.supplierSku}: skuId ${skuId} was already gone from the catalog`);
        }
      }
      // A variant moving to another group is deleted, then created again under its new parent.
      if (record.action === 'create') await map.markGone(subject.shop, record.supplierSku);
      // A parent the product's new shape does not need: removed, so a later shape can create it again.
      else if (context.deletedRows === 'forget' || record.removeRow)
        await map.forget(subject.shop, [record.supplierSku]);
      else await map.tombstone(subject.shop, [record.supplierSku]);
      return;
    }
  }
}

/**
 * Runs `task` over `items`, at most `limit` at a time, until every one settled; then rejects with
 * the first failure in `items` order, if any (so no task is left running behind a failed run).
 */
async function allSettledInOrder<T>(
  items: readonly T[],
  limit: number,
  task: (item: T) => Promise<void>,
): Promise<void> {
  const results: PromiseSettledResult<void>[] = new Array(items.length);
  let next = 0;
  const lane = async () => {
    for (let i = next++; i < items.length; i = next++) {
      try {
        results[i] = { status: 'fulfilled', value: await task(items[i] as T) };
      } catch (reason) {
        results[i] = { status: 'rejected', reason };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  const failure = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failure) throw failure.reason;
}

/**
 * A record found gone: its row is marked gone, and so is every other live row of the product
 * whose record is gone too (one `skuId` `$in` search): a variant's 404 may mean its parent was
 * deleted (with it), and a variant recreated under a dead parent fails for good. The product's
 * own record gone takes every variant row with it. The next plan recreates them, parent first.
 */
async function markGone(
  context: ExecutionContext,
  record: PlannedRecord,
  plan: SyncPlan,
  call: CatalogCall,
): Promise<void> {
  const { map, subject, client, run } = context;
  await map.markGone(subject.shop, record.supplierSku);
  const others = plan.records.filter((other) => {
    if (other.supplierSku === record.supplierSku || other.skuId === null) return false;
    return context.rows.find((r) => r.supplierSku === other.supplierSku)?.state === 'live';
  });
  if (others.length === 0) return;
  const own = plan.records.find((r) => r.shopifyVariantId === null && r.variantGroup === undefined);
  let gone: PlannedRecord[];
  if (record === own) gone = others;
  else {
    const skuIds = others.map((other) => other.skuId as string);
    const found = await traced(
      run,
      call,
      () =>
        client.searchProducts({ filter: { skuId: { $in: skuIds } }, pagination: { limit: 500, offset: 0 } }),
      'POST',
      '/v1/products/search',
    );
    const present = new Set(found.products.map((p) => p.skuId));
    gone = others.filter((other) => !present.has(other.skuId as string));
    if (own !== undefined && gone.includes(own)) gone = others;
  }
  for (const other of gone) {
    await map.markGone(subject.shop, other.supplierSku);
    run.events.push(`${other.supplierSku} (skuId ${other.skuId}) is gone from the catalog too`);
  }
}

/** Makes one call and appends it to the run's record, answered or not. */
async function traced<T>(
  run: SyncRun,
  call: CatalogCall,
  send: () => Promise<T>,
  method?: string,
  path?: string,
): Promise<T> {
  const route = method && path ? { method, path } : routeOf(call);
  try {
    const result = await send();
    run.calls.push({ ...route, status: 200, code: null, supplierSku: call.record.supplierSku });
    return result;
  } catch (error) {
    const status = isCatalogClientError(error) ? error.status : null;
    const code = isCatalogClientError(error) ? error.code : 'unexpected_error';
    run.calls.push({ ...route, status, code, supplierSku: call.record.supplierSku });
    throw error;
  }
}

/**
 * The map columns a planned record writes (notes on the product's own row only; on parents their
 * group, none once a split product's kept parent is its one record again).
 */
function applied(record: PlannedRecord, context: ExecutionContext, own: boolean) {
  return {
    kind: record.kind,
    ...(own ? { variantGroup: record.variantGroup ?? null } : {}),
    parentSupplierSku: record.parentSupplierSku,
    snapshot: record.snapshot,
    shopifyUpdatedAt: record.shopifyUpdatedAt,
    configuration: record.configuration,
    gaps: record.gaps,
    notes: own ? context.notes : [],
  };
}

/** Whether an unchanged record still needs a map write (kind, parent, configuration or gaps moved). */
function differs(row: SkuMapRow, record: PlannedRecord): boolean {
  return (
    row.kind !== record.kind ||
    row.parentSupplierSku !== record.parentSupplierSku ||
    row.configurationHash !== (record.configuration?.hash ?? null) ||
    JSON.stringify(row.gaps) !== JSON.stringify(record.gaps) ||
    (row.shopifyUpdatedAt?.getTime() ?? null) !==
      (record.shopifyUpdatedAt === null ? null : new Date(record.shopifyUpdatedAt).getTime())
  );
}
