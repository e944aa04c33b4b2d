import type { AttributeValue } from '#lib/catalog-contract';
import type { Account } from '../accounts/account.js';
import { isEnrichable } from '../attributes/attribute-applicability.js';
import type { AttributeDef } from '../attributes/attribute-definition.js';
import type { ProductView } from '../products/product-view.js';
import type { StoredProduct } from '../products/stored-product.js';
import type { CategoryFacts, ProductFacts } from './enricher.js';

/** The facts an enricher gets about a record, with `categoryId` as its category. */
export function productFacts(
  account: Account,
  view: ProductView,
  product: StoredProduct,
  categoryId: string | null,
): ProductFacts {
  const text = (key: string): string | null => {
    const def = account.attributes.get(key);
    const value = def ? view.effective(product, def)?.value : undefined;
    return typeof value === 'string' && value.trim() !== '' ? value : null;
  };
  const media = account.attributes.get('media');
  const gallery = media ? view.effective(product, media)?.value : undefined;
  const variantValues: Record<string, AttributeValue> = {};
  if (product.parentSkuId !== null) {
    for (const def of account.attributes.all()) {
      const own = product.attributes.get(def.key);
      if (def.variantable && def.key !== 'media' && def.key !== 'productModel' && def.key !== 'price' && own)
        variantValues[def.key] = own.value;
    }
  }
  return {
    skuId: product.skuId,
    supplierSku: product.supplierSku,
    isVariant: product.parentSkuId !== null,
    name: text('name'),
    brand: text('brand'),
    productModel: text('productModel'),
    description: stripTags(text('description')),
    category: categoryId === null ? null : categoryFacts(account, categoryId),
    mediaCount: Array.isArray(gallery) ? gallery.length : 0,
    variantValues,
  };
}

export function categoryFacts(account: Account, id: string): CategoryFacts | null {
  const node = account.taxonomy.node(id);
  if (!node) return null;
  const path = account.taxonomy
    .ancestors(id)
    .reverse()
    .map((a) => account.taxonomy.node(a)?.name ?? a);
  return { id: node.id, name: node.name, description: node.description, path };
}

/** Every leaf of the account's taxonomy, in tree order: the candidates of classification. */
export function leafCandidates(account: Account): CategoryFacts[] {
  return account.taxonomy.leaves().flatMap((id) => categoryFacts(account, id) ?? []);
}

/**
 * The attributes an enrichment run fills on a record: enrichable for it (applicable to
 * `categoryId`, CUSTOM or LIB, AI on, not disabled; variant-specific on variants), not
 * variant-specific on a parent that has variants (those are enriched on the variants), and
 * holding no value other than an unreviewed ENRICHMENT one (which may be refreshed): a user's
 * or the API's value, an approved or a rejected one are never touched.
 */
export function enrichmentTargets(
  account: Account,
  view: ProductView,
  product: StoredProduct,
  categoryId: string | null,
): AttributeDef[] {
  const isVariant = product.parentSkuId !== null;
  const hasVariants = product.variantSkuIds.length > 0;
  return account.attributes.all().filter((def) => {
    if (!isEnrichable(def, categoryId, isVariant, account.taxonomy)) return false;
    if (!isVariant && hasVariants && def.variantable) return false;
    const current = view.effective(product, def);
    return current === undefined || current.blame === 'ENRICHMENT';
  });
}

function stripTags(html: string | null): string | null {
  if (html === null) return null;
  const text = html
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return text === '' ? null : text;
}
