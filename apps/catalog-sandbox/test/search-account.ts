import type { Account } from '../src/accounts/account.js';
import { AttributeCatalog } from '../src/attributes/attribute-catalog.js';
import { DEFAULT_BEHAVIOUR, type SandboxBehaviour } from '../src/config/sandbox-behaviour.js';
import { InMemoryProductStore } from '../src/products/in-memory-product.store.js';
import type { StoredProduct } from '../src/products/stored-product.js';
import { TieOrder } from '../src/search/tie-order.js';
import { Taxonomy } from '../src/taxonomy/taxonomy.js';

/**
 * The parts of an Account that search reads (catalog, taxonomy, store, behaviour, tie order),
 * built directly so search tests do not depend on the Account constructor's other concerns.
 */
export function newSearchAccount(
  searchTieOrder: SandboxBehaviour['searchTieOrder'] = 'creation',
  tieSeed = 0,
): Account {
  const taxonomy = new Taxonomy([{ id: 'root', name: 'Root', children: [{ id: 'leaf', name: 'Leaf' }] }], 0);
  const attributes = new AttributeCatalog(
    [
      { key: 'size', type: 'TEXT', class: 'CUSTOM', option: { variantable: true } },
      { key: 'tags', type: 'MULTI_SELECT', class: 'CUSTOM', option: { values: ['a', 'b', 'c'] } },
    ],
    0,
    (id) => taxonomy.has(id),
  );
  const searchable: Pick<Account, 'taxonomy' | 'attributes' | 'products' | 'behaviour' | 'tieOrder'> = {
    taxonomy,
    attributes,
    products: new InMemoryProductStore(),
    behaviour: { ...DEFAULT_BEHAVIOUR, searchTieOrder },
    tieOrder: new TieOrder(tieSeed, 'test'),
  };
  return searchable as Account;
}

let seq = 0;

/** Stores a record (skuId, createdAt, own attribute values) with the next insertion sequence. */
export function addRecord(
  account: Account,
  skuId: string,
  createdAt: number,
  attributes: Record<string, string | string[]> = {},
  extra: Partial<StoredProduct> = {},
): StoredProduct {
  const product: StoredProduct = {
    id: `id-${skuId}`,
    skuId,
    supplierSku: `sup-${skuId}`,
    parentSkuId: null,
    createdAt,
    updatedAt: createdAt,
    seq: ++seq,
    attributes: new Map(Object.entries(attributes).map(([key, value]) => [key, { value }])),
    ownMedia: false,
    variantSkuIds: [],
    ...extra,
  };
  account.products.insert(product);
  return product;
}
