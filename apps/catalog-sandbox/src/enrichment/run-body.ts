import { CatalogApiError } from '../http/catalog-api.error.js';

export interface RunRequest {
  skuIds: string[];
  mode: 'auto' | 'manual';
  /** Records moved to IN_PROGRESS per step; all of them when not given. */
  batchSize: number | null;
}

/** Reads `{skuIds, mode?, batchSize?}` of POST /portal/v1/accounts/{id}/enrichment/runs. */
export function parseRunBody(body: unknown): RunRequest {
  const input = (typeof body === 'object' && body !== null && !Array.isArray(body) ? body : {}) as Record<
    string,
    unknown
  >;
  const { skuIds, mode, batchSize } = input;
  if (!Array.isArray(skuIds) || skuIds.length === 0 || skuIds.some((s) => typeof s !== 'string')) {
    throw CatalogApiError.validation('"skuIds" must be a non-empty array of skuIds.', { field: 'skuIds' });
  }
  const unique = new Set(skuIds as string[]);
  if (unique.size !== skuIds.length) {
    throw CatalogApiError.validation('"skuIds" must not repeat a skuId.', { field: 'skuIds' });
  }
  if (mode !== undefined && mode !== 'auto' && mode !== 'manual') {
    throw CatalogApiError.validation('"mode" must be "auto" or "manual".', { field: 'mode' });
  }
  if (batchSize !== undefined && !(Number.isInteger(batchSize) && (batchSize as number) >= 1)) {
    throw CatalogApiError.validation('"batchSize" must be an integer >= 1.', { field: 'batchSize' });
  }
  return { skuIds: [...unique], mode: mode ?? 'auto', batchSize: (batchSize as number | undefined) ?? null };
}
