import type { PlannedRecord } from '../plan/index.js';
import type { SkuMapRepository } from '../sku-map/sku-map.repository.js';
import type { SyncSubject } from './sync-subject.js';

/**
 * Why: deleting a parent a product's new shape does not need is destructive (its enrichment is
 * lost), so its evidence is checked again when the delete is about to go: the sku map must still
 * hold that parent as a row of this shop's product, not tombstoned, with the skuId the plan read.
 * Otherwise the delete is refused with the reason (retryable: the next run plans from the map as
 * it is then).
 */
export async function checkReplacedParent(
  map: SkuMapRepository,
  subject: SyncSubject,
  record: PlannedRecord,
): Promise<void> {
  const rows = await map.rowsOfProduct(subject.shop, subject.productId);
  const row = rows.find((r) => r.supplierSku === record.supplierSku);
  const reason =
    row === undefined
      ? `is no row of product ${subject.productId} any more`
      : row.shopifyVariantId !== null
        ? 'is a variant row'
        : row.state === 'tombstoned'
          ? 'is tombstoned'
          : row.skuId !== record.skuId
            ? `has skuId ${row.skuId ?? 'none'} now, not ${record.skuId ?? 'none'}`
            : null;
  if (reason !== null) throw new ParentDeleteRefused(`${record.supplierSku} ${reason}`);
}

/** The evidence for a parent's delete no longer holds: nothing was sent. */
class ParentDeleteRefused extends Error {
  readonly code = 'parent_delete_refused';
  readonly retryable = true;

  constructor(detail: string) {
    super(`refused to delete parent ${detail} (the sku map changed since the plan)`);
    this.name = 'ParentDeleteRefused';
  }
}
