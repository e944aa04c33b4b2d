import type {
  ProductRecord,
  ProductSearchRequest,
  ProductSearchResponse,
  VariantCreateRequest,
  VariantCreateResponse,
} from '#lib/catalog-contract';
import type { Priority } from '../limiter/priority-queue.js';

type Search = (
  request: ProductSearchRequest,
  call: { priority?: Priority },
) => Promise<ProductSearchResponse>;

/**
 * Finds the record a create would have made, by `supplierSku` `$eq`, newest first. Products are
 * records without a parent; variants are records with one. When several products share the
 * `supplierSku` (the catalog does not deduplicate), the newest is the one a lost create made.
 */
export class RecordLookup {
  private readonly search: Search;

  constructor(search: Search) {
    this.search = search;
  }

  async product(supplierSku: string, call: { priority?: Priority }): Promise<ProductRecord | null> {
    const matches = await this.bySupplierSku(supplierSku, call);
    return matches.find((record) => record.parentSkuId === null) ?? null;
  }

  async variant(
    body: VariantCreateRequest,
    call: { priority?: Priority },
  ): Promise<VariantCreateResponse | null> {
    const matches = await this.bySupplierSku(body.supplierSku, call);
    const record = matches.find((r) => r.parentSkuId !== null);
    if (!record) return null;
    // The create answer's shape: the submitted attributes, and the inherited ones apart.
    const submitted = new Set(body.attributes.map((a) => a.key));
    return {
      ...record,
      parentSupplierSku: body.parentSupplierSku,
      attributes: record.attributes.filter((a) => submitted.has(a.key) && !a.inherited),
      inheritedAttributes: record.attributes.filter((a) => a.inherited === true),
    };
  }

  /**
   * Every record (products and variants) with exactly this `supplierSku`, newest first, every
   * page. Why: the caller reconciling an unknown create outcome must see duplicates too.
   */
  async all(supplierSku: string, call: { priority?: Priority }): Promise<ProductRecord[]> {
    const found: ProductRecord[] = [];
    const limit = 500;
    for (let offset = 0; ; offset += limit) {
      const page = await this.search(
        {
          filter: { supplierSku: { $eq: supplierSku } },
          sort: { field: 'createdAt', order: 'DESC' },
          pagination: { limit, offset },
        },
        call,
      );
      found.push(...page.products.filter((record) => record.supplierSku === supplierSku));
      if (page.products.length < limit || offset + limit >= page.pagination.total) return found;
    }
  }

  private async bySupplierSku(supplierSku: string, call: { priority?: Priority }): Promise<ProductRecord[]> {
    const page = await this.search(
      {
        filter: { supplierSku: { $eq: supplierSku } },
        sort: { field: 'createdAt', order: 'DESC' },
        pagination: { limit: 100, offset: 0 },
      },
      call,
    );
    return page.products.filter((record) => record.supplierSku === supplierSku);
  }
}
