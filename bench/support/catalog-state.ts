import type { CatalogSandboxHarness, RequestLogEntry, TestAccount } from '#testing/catalog-sandbox';

/** One catalog record as a benchmark compares it: its supplierSku and attribute values. */
export interface RecordState {
  supplierSku: string;
  parentSkuId: string | null;
  attributes: Record<string, unknown>;
}

/**
 * Every record of an account, read from the sandbox's store in this process: no `/v1` call, so
 * watching the catalog neither spends the account's rate budget nor shows in its request log.
 */
export function catalogRecords(
  catalog: CatalogSandboxHarness,
  account: TestAccount,
): Map<string, RecordState> {
  const store = catalog.sandbox.accounts.require(account.id).products;
  const records = new Map<string, RecordState>();
  for (const product of store.all()) {
    const attributes: Record<string, unknown> = {};
    for (const [key, entry] of product.attributes) attributes[key] = entry.value;
    records.set(product.skuId, {
      supplierSku: product.supplierSku,
      parentSkuId: product.parentSkuId,
      attributes,
    });
  }
  return records;
}

/** The Shopify product id of a record made by the connector or the peer (`...:product:<id>`). */
export function productIdOf(record: RecordState): string | null {
  return /:product:(\d+)$/.exec(record.supplierSku)?.[1] ?? null;
}

/**
 * The fewest writes that take an account from `before` to `after`: a POST per new record, a
 * DELETE per gone one, a PATCH per record whose attributes differ.
 */
export function writesNeeded(before: Map<string, RecordState>, after: Map<string, RecordState>): number {
  let writes = 0;
  for (const [skuId, record] of after) {
    const old = before.get(skuId);
    if (!old) writes++;
    else if (JSON.stringify(sorted(old.attributes)) !== JSON.stringify(sorted(record.attributes))) writes++;
  }
  for (const skuId of before.keys()) if (!after.has(skuId)) writes++;
  return writes;
}

function sorted(attributes: Record<string, unknown>): Array<[string, unknown]> {
  return Object.entries(attributes).sort(([a], [b]) => a.localeCompare(b));
}

/** An account's `/v1` calls since `since` (epoch ms), from its request log (portal API). */
export async function callsSince(account: TestAccount, since: number): Promise<RequestLogEntry[]> {
  return account.controls.requests({ since });
}

/** Writes among calls: POST, PATCH, DELETE, searches excluded. */
export function isWrite(call: RequestLogEntry): boolean {
  return call.method !== 'GET' && !call.path.endsWith('/search');
}
