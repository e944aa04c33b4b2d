import type { AttributeValue, ProductRecord } from '#lib/catalog-contract';

/**
 * Where a write-back attribute of a catalog record stands. `approved` (blame
 * ENRICHMENT_APPROVED) and `entered` (no blame: a person typed or corrected it; the connector never
 * writes these attributes) are pushed; `pending` (ENRICHMENT, awaiting review) waits; `rejected`
 * (ENRICHMENT_REJECTED) and `empty` (cleared, or never set) take back what was pushed.
 */
export type CatalogValue =
  | { status: 'approved' | 'entered'; value: Exclude<AttributeValue, null> }
  | { status: 'pending' | 'rejected' | 'empty' };

/** Whether a push writes this value to Shopify (approved or entered), with the value it writes. */
export function isWritten(
  value: CatalogValue,
): value is Extract<CatalogValue, { status: 'approved' | 'entered' }> {
  return value.status === 'approved' || value.status === 'entered';
}

/** The state of `attribute` in `record` (an absent attribute is empty). */
export function catalogValueOf(record: ProductRecord, attribute: string): CatalogValue {
  const entry = record.attributes.find((a) => a.key === attribute);
  const value = entry?.value ?? null;
  if (entry === undefined || isEmpty(value)) return { status: 'empty' };
  switch (entry.blame) {
    case 'ENRICHMENT':
      return { status: 'pending' };
    case 'ENRICHMENT_REJECTED':
      return { status: 'rejected' };
    case 'ENRICHMENT_APPROVED':
      return { status: 'approved', value: value as Exclude<AttributeValue, null> };
    default:
      return { status: 'entered', value: value as Exclude<AttributeValue, null> };
  }
}

function isEmpty(value: AttributeValue): boolean {
  if (value === null) return true;
  if (Array.isArray(value)) return value.every((v) => v.trim() === '');
  return value.trim() === '';
}
