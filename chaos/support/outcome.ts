import { catalogRecords, type RecordState } from '../../bench/support/catalog-state.js';
import type { ChaosStack } from './chaos-stack.js';
import type { ShopModel } from './shop-model.js';

/** What every scenario reports (chaos/README.md, "Figures"). */
export interface ScenarioFigures {
  /** Webhook deliveries Shopify made (duplicates included). */
  sent: number;
  /** Of those, answered 2xx (at some attempt). */
  acknowledged: number;
  /** Products the merchant touched. */
  products: number;
  /** Products whose catalog records are what the merchant's last change says. */
  synced: number;
  /** Catalog records beyond one per supplierSku. */
  duplicates: number;
  /** Acknowledged deliveries not in the inbox, or never processed. */
  lostDeliveries: number;
  /** Products whose catalog records do not show the merchant's last change. */
  lostUpdates: number;
  /** The same write-back value written twice to one Shopify target. */
  valuesWrittenTwice: number;
  converged: boolean;
  /** From the end of the disturbance to every product synced and nothing left waiting. */
  convergeMs: number | null;
  failuresOpen: number;
  /** Always 0: the run never restarts anything to make it converge (the supervisor's restarts are below). */
  restartsByHand: 0;
  /** Processes the supervisor started again after they died (kill -9, a crash at boot). */
  automaticRestarts: number;
}

/** One look at both systems: the products in step, the inbox, the deliveries. */
export interface Snapshot {
  synced: number;
  lostUpdates: number;
  duplicates: number;
  waiting: number;
  pendingOutbox: number;
}

/** Compares the catalog with the model, and counts what still waits in the connector. */
export async function snapshot(stack: ChaosStack, model: ShopModel): Promise<Snapshot> {
  const records = catalogRecords(stack.catalog, stack.account);
  const bySku = new Map<string, RecordState[]>();
  for (const record of records.values()) {
    const list = bySku.get(record.supplierSku) ?? [];
    list.push(record);
    bySku.set(record.supplierSku, list);
  }
  let duplicates = 0;
  for (const list of bySku.values()) duplicates += list.length - 1;
  let synced = 0;
  for (const product of model.products.values()) {
    const own = bySku.get(`${stack.handle}:product:${product.id}`)?.[0];
    if (product.deleted) {
      const leftovers = product.variants.some((v) => bySku.has(`${stack.handle}:variant:${v.id}`));
      if (!own && !leftovers) synced++;
      continue;
    }
    if (!own || own.attributes.name !== product.title) continue;
    if (product.parent) {
      const wanted = new Set(product.variants.map((v) => `${stack.handle}:variant:${v.id}`));
      const children = [...records.entries()].filter(([, r]) => r.parentSkuId !== null);
      const ownSkuId = [...records.entries()].find(([, r]) => r === own)?.[0];
      const mine = children.filter(([, r]) => r.parentSkuId === ownSkuId).map(([, r]) => r.supplierSku);
      if (mine.length !== wanted.size || !mine.every((sku) => wanted.has(sku))) continue;
    }
    synced++;
  }
  const waiting = await count(
    stack,
    `SELECT count(*) AS n FROM "${stack.schema}".inbox WHERE state = 'received'`,
  );
  const pendingOutbox = await count(
    stack,
    `SELECT count(*) AS n FROM "${stack.schema}".enrichment_outbox WHERE state = 'pending'`,
  );
  return { synced, lostUpdates: model.products.size - synced, duplicates, waiting, pendingOutbox };
}

/** Deliveries made and acknowledged, and those acknowledged but lost (never stored, or never processed). */
export async function deliveryFigures(
  stack: ChaosStack,
): Promise<{ sent: number; acknowledged: number; lostDeliveries: number }> {
  const deliveries = await stack.shopify.deliveries();
  const acknowledged = deliveries.filter((d) => d.attempts.some((a) => a.status !== null && a.status < 300));
  const { rows } = await stack.db.query<{ webhook_id: string; state: string }>(
    `SELECT webhook_id, state FROM "${stack.schema}".inbox`,
  );
  const stored = new Map(rows.map((row) => [row.webhook_id, row.state]));
  const lost = new Set<string>();
  for (const delivery of acknowledged) {
    const state = stored.get(delivery.webhookId);
    if (state === undefined || state === 'received') lost.add(delivery.webhookId);
  }
  return { sent: deliveries.length, acknowledged: acknowledged.length, lostDeliveries: lost.size };
}

export async function openFailures(stack: ChaosStack): Promise<number> {
  return count(stack, `SELECT count(*) AS n FROM "${stack.schema}".failures WHERE state = 'open'`);
}

/**
 * Waits until Shopify made every delivery and the catalog shows every product as the merchant
 * left it, with nothing waiting in the inbox or the outbox; resolves to the time it took, or
 * null past the deadline.
 */
export async function awaitConvergence(
  stack: ChaosStack,
  model: ShopModel,
  deadlineMs: number,
): Promise<number | null> {
  const started = performance.now();
  for (;;) {
    const idle = await stack.shopify.sandbox
      .idle()
      .then(() => true)
      .catch(() => false);
    const now = await snapshot(stack, model).catch(() => null);
    if (idle && now && now.lostUpdates === 0 && now.waiting === 0 && now.pendingOutbox === 0) {
      return Math.round(performance.now() - started);
    }
    if (performance.now() - started > deadlineMs) return null;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function count(stack: ChaosStack, sql: string): Promise<number> {
  const { rows } = await stack.db.query<{ n: string }>(sql);
  return Number(rows[0]?.n ?? 0);
}
