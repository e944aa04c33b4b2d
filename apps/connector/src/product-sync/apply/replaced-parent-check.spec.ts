import { describe, expect, it } from 'vitest';
import type { PlannedRecord } from '../plan/index.js';
import type { SkuMapRepository } from '../sku-map/sku-map.repository.js';
import type { SkuMapRow } from '../sku-map/sku-map-row.entity.js';
import { checkReplacedParent } from './replaced-parent-check.js';

const subject = { shop: 'demo.myshopify.com', productId: '42' };

/** A sku map holding `rows` as the product's rows. */
const mapOf = (rows: Array<Partial<SkuMapRow>>) =>
  ({ rowsOfProduct: async () => rows as SkuMapRow[] }) as unknown as SkuMapRepository;

const record = (skuId: string | null): PlannedRecord => ({
  kind: 'parent',
  shopifyVariantId: null,
  supplierSku: 'demo:product:42:102',
  variantGroup: '102',
  parentSupplierSku: null,
  skuId,
  action: 'delete',
  removeRow: true,
  snapshot: {},
  shopifyUpdatedAt: null,
  configuration: null,
  gaps: [],
});

const row = (fields: Partial<SkuMapRow>): Partial<SkuMapRow> => ({
  supplierSku: 'demo:product:42:102',
  shopifyVariantId: null,
  state: 'live',
  skuId: 'SK00000002',
  ...fields,
});

// Deleting a parent a new shape does not need is destructive: its evidence (the product's own map
// row, as the plan read it) is checked again just before the delete goes.
describe('checkReplacedParent', () => {
  it('lets the delete go while the row is the plan read it', async () => {
    await expect(
      checkReplacedParent(mapOf([row({})]), subject, record('SK00000002')),
    ).resolves.toBeUndefined();
    await expect(
      checkReplacedParent(mapOf([row({ state: 'pending-create', skuId: null })]), subject, record(null)),
    ).resolves.toBeUndefined();
  });

  it('refuses it, saying why, when the row is no longer the product’s, is tombstoned or has another skuId', async () => {
    const cases: Array<[Array<Partial<SkuMapRow>>, RegExp]> = [
      [[], /is no row of product 42/],
      [[row({ state: 'tombstoned' })], /is tombstoned/],
      [[row({ skuId: 'SK00000009' })], /has skuId SK00000009 now, not SK00000002/],
      [[row({ shopifyVariantId: '7' })], /is a variant row/],
    ];
    for (const [rows, reason] of cases) {
      const refused = checkReplacedParent(mapOf(rows), subject, record('SK00000002'));
      await expect(refused).rejects.toThrow(reason);
      await expect(refused).rejects.toMatchObject({ code: 'parent_delete_refused', retryable: true });
    }
  });
});
