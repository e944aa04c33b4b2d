/** One catalog call a sync run made, as the run's record (and the product's timeline) shows it. */
export interface CatalogCallRecord {
  method: string;
  /** The catalog path, e.g. `/v1/products/{skuId}` with the id filled in. */
  path: string;
  /** The HTTP status answered; null when no answer came (time-out, connection lost). */
  status: number | null;
  /** The client's error code when the call failed (`not_found`, `create_outcome_unknown`, ...). */
  code: string | null;
  /** What the call was for: the record's supplierSku. */
  supplierSku: string;
}
