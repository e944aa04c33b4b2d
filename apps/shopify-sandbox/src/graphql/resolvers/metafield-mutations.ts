import { parseGid } from '../../common/gid.js';
import type { ProductRecord } from '../../products/product.model.js';
import type { AdminContext } from '../admin-context.js';
import { resolveNamespace } from '../metafields/metafield-namespace.js';
import { METAFIELD_MESSAGES } from '../metafields/metafield-types.data.js';
import { node as collectionNode } from './collection-queries.js';
import { metafieldNode } from './metafield-view.js';
import {
  applyMetafieldWrites,
  checkMetafieldWrites,
  METAFIELDS_SET_LIMIT,
  type MetafieldWrite,
  ownerCollection,
  ownerProduct,
} from './metafield-writer.js';
import { productNode } from './product-view.js';
import { variantNode } from './variant-view.js';

/** `metafieldsSet` and `metafieldsDelete`. A change fires `products/update` for the owning product. */
export const metafieldMutations = {
  metafieldsSet: (args: { metafields: MetafieldWrite[] }, ctx: AdminContext) => {
    if (args.metafields.length > METAFIELDS_SET_LIMIT) {
      return {
        metafields: null,
        userErrors: [
          {
            field: ['metafields'],
            message: METAFIELD_MESSAGES.tooMany(METAFIELDS_SET_LIMIT),
            code: 'LESS_THAN_OR_EQUAL_TO',
            elementIndex: null,
          },
        ],
      };
    }
    const userErrors = checkMetafieldWrites(ctx, args.metafields, ['metafields']);
    if (userErrors.length > 0) return { metafields: null, userErrors };
    const { records, changed } = applyMetafieldWrites(ctx, args.metafields);
    for (const product of changed) ctx.shop.products.save(product);
    return {
      metafields: records.map((record) => metafieldNode(record, () => ownerNode(ctx, record.ownerId))),
      userErrors: [],
    };
  },
  metafieldsDelete: (
    args: { metafields: Array<{ ownerId: string; namespace?: string | null; key: string }> },
    ctx: AdminContext,
  ) => {
    const changed = new Set<ProductRecord>();
    const deletedMetafields = args.metafields.map((m) => {
      const deleted = ctx.shop.metafields.delete(m.ownerId, resolveNamespace(m.namespace), m.key);
      if (!deleted) return null;
      const product = ownerProduct(ctx, m.ownerId);
      if (product) changed.add(product);
      return {
        __typename: 'MetafieldIdentifier',
        ownerId: m.ownerId,
        namespace: deleted.namespace,
        key: deleted.key,
      };
    });
    for (const product of changed) ctx.shop.products.save(product);
    return { deletedMetafields, userErrors: [] };
  },
};

/** The GraphQL node of a metafield's owner: a product, a variant or a collection. */
export function ownerNode(ctx: AdminContext, ownerId: string) {
  const collection = ownerCollection(ctx, ownerId);
  if (collection) return collectionNode(ctx, collection);
  const productId = parseGid(ownerId, 'Product');
  if (productId !== undefined) {
    const product = ctx.shop.products.get(productId);
    return product ? productNode(ctx, product) : {};
  }
  const variantId = parseGid(ownerId, 'ProductVariant');
  const found = variantId === undefined ? undefined : ctx.shop.products.findVariant(variantId);
  return found ? variantNode(ctx, found.product, found.variant) : {};
}
