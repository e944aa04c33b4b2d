import type {
  OperatorObject,
  ProductRecord,
  ProductSearchRequest,
  ProductSearchResponse,
} from '#lib/catalog-contract';

/**
 * An in-memory catalog search for the poller's unit tests: the operators the poller sends on
 * `updatedAt`, `dataEnrichment.completedAt`/`status` and `skuId`, ascending sort (ties by skuId),
 * limit and offset, `hasMore`. Every request is kept (`bodies`) so tests count searches.
 */
export class InMemoryCatalogSearch {
  readonly records = new Map<string, ProductRecord>();
  readonly bodies: ProductSearchRequest[] = [];

  put(record: ProductRecord): void {
    this.records.set(record.skuId, structuredClone(record));
  }

  search = async (body: ProductSearchRequest): Promise<ProductSearchResponse> => {
    this.bodies.push(structuredClone(body));
    const filter = body.filter ?? {};
    const matches = [...this.records.values()].filter(
      (r) =>
        fits(r.updatedAt, filter.updatedAt) &&
        fits(r.skuId, filter.skuId) &&
        (filter.dataEnrichment === undefined ||
          (fits(r.dataEnrichment?.status, filter.dataEnrichment.status) &&
            fits(r.dataEnrichment?.completedAt, filter.dataEnrichment.completedAt))),
    );
    const field = body.sort?.field;
    const key = (r: ProductRecord) =>
      field === 'updatedAt'
        ? r.updatedAt
        : field === 'createdAt'
          ? r.createdAt
          : (r.dataEnrichment?.completedAt ?? 0);
    if (field) matches.sort((a, b) => key(a) - key(b) || a.skuId.localeCompare(b.skuId));
    const limit = body.pagination?.limit ?? 20;
    const offset = body.pagination?.offset ?? 0;
    const page = matches.slice(offset, offset + limit);
    return {
      products: structuredClone(page),
      pagination: { limit, offset, total: matches.length, hasMore: offset + page.length < matches.length },
    };
  };
}

function fits<T extends string | number>(value: T | undefined, op: OperatorObject<T> | undefined): boolean {
  if (op === undefined) return true;
  if (value === undefined) return false;
  if (op.$eq !== undefined && value !== op.$eq) return false;
  if (op.$gt !== undefined && !(value > op.$gt)) return false;
  if (op.$gte !== undefined && !(value >= op.$gte)) return false;
  if (op.$lt !== undefined && !(value < op.$lt)) return false;
  if (op.$lte !== undefined && !(value <= op.$lte)) return false;
  if (op.$in !== undefined && !op.$in.includes(value)) return false;
  if (op.$nin?.includes(value)) return false;
  return true;
}
