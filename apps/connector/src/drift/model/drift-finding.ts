/**
 * Why: the seven ways Shopify, the sku map and the catalog can disagree (issue 32), each a kind
 * an operator can list, count and repair as a whole.
 * - `catalog-changed`: a mapped value in the catalog differs from what the connector last sent
 *   (a person edited it in the portal, or through another API client).
 * - `missed-webhook`: Shopify changed (or deleted) the product after its last sync.
 * - `record-gone`: a live map row whose catalog record no longer exists.
 * - `orphan`: a catalog record no map row of any shop the connector serves claims.
 * - `duplicate`: a second record with the supplierSku of a record the map claims.
 * - `written-back-differs`: a written-back value Shopify no longer holds (a merchant edit).
 * - `no-longer-approved`: a written-back value the catalog no longer approves.
 */
export type DriftKind =
  | 'catalog-changed'
  | 'missed-webhook'
  | 'record-gone'
  | 'orphan'
  | 'duplicate'
  | 'written-back-differs'
  | 'no-longer-approved';

/** Every kind, in the order a report lists them. */
export const DRIFT_KINDS: readonly DriftKind[] = [
  'catalog-changed',
  'missed-webhook',
  'record-gone',
  'orphan',
  'duplicate',
  'written-back-differs',
  'no-longer-approved',
];

/**
 * Why: nothing is repaired without an operator's choice, so each finding names what its repair
 * would do. `resync`: sync the product again from Shopify (the catalog gets the connector's
 * values back, a gone record is created again, a deleted product's records are deleted).
 * `adopt`: link the orphan to the product its supplierSku names. `delete-record`: delete the
 * orphan or the duplicate from the catalog. `retract`: take a written-back value the catalog no
 * longer approves out of Shopify (what the merchant had before is restored). `accept-merchant`:
 * keep a merchant's edit of a written-back value (the target becomes the merchant's, and the
 * product is synced so the catalog gets the merchant's value where it is mapped). `review`: an
 * orphan whose owner the connector cannot prove (a foreign supplierSku, a variant under a claimed
 * parent, a prefix another shop uses): maybe another shop's or tool's live record, so it is
 * never deleted by a repair; its "repair" is refused with that reason, for a person to look at.
 */
export type DriftRepair = 'resync' | 'adopt' | 'delete-record' | 'retract' | 'accept-merchant' | 'review';

/** Every repair, in the order the documentation lists them. */
export const DRIFT_REPAIRS: readonly DriftRepair[] = [
  'resync',
  'adopt',
  'delete-record',
  'retract',
  'accept-merchant',
  'review',
];

/**
 * Why: one disagreement, stable across reports: its `key` is the same for the same disagreement
 * in the next report, which is how a report tells new findings from resolved and still open ones.
 */
export interface DriftFinding {
  kind: DriftKind;
  /** Kind plus what it is about (product, record, field): equal keys are the same finding. */
  key: string;
  /** Shopify's numeric product id, when the finding is about a product of the shop. */
  productId: string | null;
  /** The catalog record concerned, when there is one. */
  skuId: string | null;
  supplierSku: string | null;
  /** The mapped attribute or written-back field, when the finding is about one value. */
  field: string | null;
  /** What the connector expected and what it found (wire values, for the operator's eyes). */
  expected: string | string[] | null;
  found: string | string[] | null;
  repair: DriftRepair;
  /**
   * An orphan's or a duplicate's parent record when it is a variant record (its delete is the
   * variant's, never its parent product's); absent otherwise.
   */
  parentSkuId?: string;
  /** A written-back value's Shopify owner (product or variant gid); absent otherwise. */
  ownerId?: string;
  /** A written-back value's target key (`seo.title`, `tags`, `metafield:...`); absent otherwise. */
  target?: string;
}
