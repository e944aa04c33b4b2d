import type { AttributeValue, ProductRecord } from '#lib/catalog-contract';
import { sameValue } from '../../product-sync/plan/attribute-diff.js';
import type { AttributeSnapshot, RecordKind } from '../../product-sync/plan/index.js';
import type { WrittenBackValue } from '../../product-sync/written-back-values.service.js';
import type { DriftFinding } from './drift-finding.js';

/** A sku map row as the comparison needs it (live and pending rows; tombstoned ones left out). */
export interface DriftMapRow {
  productId: string;
  variantId: string | null;
  kind: RecordKind;
  supplierSku: string;
  /** Null while a create is pending or after the record was found gone. */
  skuId: string | null;
  state: 'pending-create' | 'live' | 'gone-from-catalog';
  /** Every mapped attribute as the connector last sent it. */
  snapshot: AttributeSnapshot;
  /** Shopify's `updatedAt` last applied (epoch ms), null when never. */
  shopifyUpdatedAt: number | null;
}

/** A written-back value that disagrees (the write-back's comparison, through `WrittenBackValues`). */
export type DriftWrittenBack = WrittenBackValue;

/** Everything one report compares, read before the comparison (so it stays pure). */
export interface DriftInput {
  /** This shop's map rows. */
  rows: readonly DriftMapRow[];
  /**
   * skuIds and supplierSkus claimed by a map row (not tombstoned) of any shop the connector
   * serves, whatever its catalog key: read after the catalog scan, so a record a sync created
   * during the scan is claimed.
   */
  claimed: { skuIds: ReadonlySet<string>; supplierSkus: ReadonlySet<string> };
  /** Every record of the catalog account (a paged scan). */
  catalog: readonly ProductRecord[];
  /** The shop's products in Shopify now: id to `updatedAt` (epoch ms). */
  shopify: ReadonlyMap<string, number>;
  writtenBack: readonly DriftWrittenBack[];
  /** The shop's derived supplierSku prefix (`<prefix>:product:<id>`, `<prefix>:variant:<id>`). */
  prefix: string;
  /** Another shop the connector serves derives supplierSkus under the same prefix (or its map holds some). */
  sharedPrefix: boolean;
}

/**
 * Why: one pure comparison of the three sides, so every kind can be tested without a server and
 * the job only reads (Shopify through the whole-shop read, the catalog by paged searches, the
 * map from PostgreSQL) and stores. Findings come in a stable order, each with its repair.
 */
export function findDrift(input: DriftInput): DriftFinding[] {
  const findings: DriftFinding[] = [];
  const bySkuId = new Map(input.catalog.map((record) => [record.skuId, record]));
  const missed = new Set<string>();
  // The latest Shopify `updatedAt` a sync applied to each product: a sync that changed only the
  // product's own record leaves its variant rows at an older one, and saw the whole product.
  const applied = new Map<string, number>();
  for (const row of input.rows) {
    if (row.shopifyUpdatedAt === null) continue;
    applied.set(
      row.productId,
      Math.max(applied.get(row.productId) ?? row.shopifyUpdatedAt, row.shopifyUpdatedAt),
    );
  }
  for (const row of input.rows) {
    const updatedAt = input.shopify.get(row.productId);
    const last = applied.get(row.productId);
    const changedSince = updatedAt !== undefined && last !== undefined && updatedAt > last;
    if ((updatedAt === undefined || changedSince) && !missed.has(row.productId)) {
      missed.add(row.productId);
      findings.push({
        ...about(row, 'missed-webhook', `missed-webhook:${row.productId}`),
        skuId: null,
        supplierSku: null,
        expected: last === undefined ? null : new Date(last).toISOString(),
        found: updatedAt === undefined ? null : new Date(updatedAt).toISOString(),
      });
    }
    if (row.state !== 'live' || row.skuId === null) continue;
    const record = bySkuId.get(row.skuId);
    if (!record) {
      findings.push(about(row, 'record-gone', `record-gone:${row.skuId}`));
      continue;
    }
    for (const [field, sent] of Object.entries(row.snapshot)) {
      const now = personValue(record, field);
      if (now === undefined || sameValue(now, sent)) continue;
      findings.push({
        ...about(row, 'catalog-changed', `catalog-changed:${row.skuId}:${field}`),
        field,
        expected: sent,
        found: now,
      });
    }
  }
  findings.push(...strayRecords(input));
  for (const value of input.writtenBack) {
    const kind = value.disagreement === 'differs' ? 'written-back-differs' : 'no-longer-approved';
    findings.push({
      kind,
      key: `${kind}:${value.ownerId}:${value.attribute}:${value.target}`,
      productId: value.productId,
      skuId: value.skuId,
      supplierSku: null,
      field: value.attribute,
      expected: value.expected,
      found: value.found,
      repair: kind === 'written-back-differs' ? 'accept-merchant' : 'retract',
      ownerId: value.ownerId,
      target: value.target,
    });
  }
  return findings;
}

/**
 * Orphans and duplicates: records no map row claims, told apart by their supplierSku. An orphan
 * product record whose derived supplierSku names a product of the shop is adopted; so are its
 * orphan variant records with derived supplierSkus (`<prefix>:variant:<id>`: a product with
 * options, adopted whole). An orphan is proposed for deletion only when the connector can prove
 * it is its own leftover and nobody's live record: a derived product record of a product Shopify
 * no longer has, under a prefix no other served shop uses, whose variant records are all derived
 * and unclaimed (they go with it). Every other orphan (a foreign supplierSku, a variant under a
 * claimed parent, a shared prefix) is one to `review`: its owner cannot be proven.
 */
function strayRecords(input: DriftInput): DriftFinding[] {
  const findings: DriftFinding[] = [];
  const claimedSkus = new Set(
    input.catalog.filter((r) => input.claimed.skuIds.has(r.skuId)).map((r) => r.supplierSku),
  );
  const unclaimed = (r: ProductRecord) =>
    !input.claimed.skuIds.has(r.skuId) &&
    !claimedSkus.has(r.supplierSku) &&
    !input.claimed.supplierSkus.has(r.supplierSku);
  const variantHead = `${input.prefix}:variant:`;
  const derivedVariant = (r: ProductRecord) =>
    r.supplierSku.startsWith(variantHead) && /^\d+$/.test(r.supplierSku.slice(variantHead.length));
  const children = new Map<string, ProductRecord[]>();
  for (const r of input.catalog) {
    if (r.parentSkuId !== null) children.set(r.parentSkuId, [...(children.get(r.parentSkuId) ?? []), r]);
  }
  // Orphan product records naming a product of the shop: skuId to that product.
  const adoptableParents = new Map<string, string>();
  // Orphan product records provably the connector's leftovers (deleted with their variant records).
  const deletableParents = new Set<string>();
  for (const r of input.catalog) {
    if (r.parentSkuId !== null || !unclaimed(r)) continue;
    const productId = derivedProduct(r.supplierSku, input.prefix);
    if (productId === null) continue;
    if (input.shopify.has(productId)) adoptableParents.set(r.skuId, productId);
    else if (
      !input.sharedPrefix &&
      (children.get(r.skuId) ?? []).every((child) => unclaimed(child) && derivedVariant(child))
    ) {
      deletableParents.add(r.skuId);
    }
  }
  const productOf = (record: ProductRecord): string | null => {
    if (record.parentSkuId === null) return adoptableParents.get(record.skuId) ?? null;
    return derivedVariant(record) ? (adoptableParents.get(record.parentSkuId) ?? null) : null;
  };
  const deletable = (record: ProductRecord): boolean =>
    deletableParents.has(record.parentSkuId ?? record.skuId);
  for (const record of input.catalog) {
    if (input.claimed.skuIds.has(record.skuId)) continue;
    const common = {
      productId: null,
      skuId: record.skuId,
      supplierSku: record.supplierSku,
      field: null,
      ...(record.parentSkuId !== null ? { parentSkuId: record.parentSkuId } : {}),
    };
    if (claimedSkus.has(record.supplierSku)) {
      findings.push({
        ...common,
        kind: 'duplicate',
        key: `duplicate:${record.skuId}`,
        expected: null,
        found: record.supplierSku,
        repair: 'delete-record',
      });
      continue;
    }
    // A pending create's record: the next sync finds it by supplierSku and links it; not an orphan.
    if (input.claimed.supplierSkus.has(record.supplierSku)) continue;
    const productId = productOf(record);
    findings.push({
      ...common,
      productId,
      kind: 'orphan',
      key: `orphan:${record.skuId}`,
      expected: null,
      found: record.supplierSku,
      repair: productId !== null ? 'adopt' : deletable(record) ? 'delete-record' : 'review',
    });
  }
  return findings;
}

/** The product id a derived product supplierSku (`<prefix>:product:<id>`) names, or null. */
function derivedProduct(supplierSku: string, prefix: string): string | null {
  const head = `${prefix}:product:`;
  const id = supplierSku.startsWith(head) ? supplierSku.slice(head.length) : '';
  return /^\d+$/.test(id) ? id : null;
}

/**
 * What a mapped field holds now, when a person or an API client set it: undefined for a value
 * enrichment wrote (the catalog's own work, the write-back's business) or one inherited from the
 * parent's record; null for a value cleared (absent from the record, or an empty list).
 */
function personValue(record: ProductRecord, field: string): AttributeValue | undefined {
  const entry = record.attributes.find((a) => a.key === field);
  if (!entry) return null;
  if (entry.inherited === true || entry.blame !== undefined) return undefined;
  return Array.isArray(entry.value) && entry.value.length === 0 ? null : entry.value;
}

function about(row: DriftMapRow, kind: DriftFinding['kind'], key: string): DriftFinding {
  return {
    kind,
    key,
    productId: row.productId,
    skuId: row.skuId,
    supplierSku: row.supplierSku,
    field: null,
    expected: null,
    found: null,
    repair: 'resync',
  };
}
