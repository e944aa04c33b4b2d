import { toGid } from '../../common/gid.js';
import { graphqlTime } from '../../common/shop-time.js';
import { type ProductRecord, type VariantRecord, variantTitle } from '../../products/product.model.js';
import type { AdminContext, GraphQLObject } from '../admin-context.js';
import { type ConnectionArgs, connection } from '../connection.js';
import { imageNode, mediaImageNode } from './media-view.js';
import { metafieldFields } from './metafield-view.js';
import { productNode } from './product-view.js';

/** A variant as GraphQL `ProductVariant`. */
export function variantNode(
  ctx: AdminContext,
  product: ProductRecord,
  variant: VariantRecord,
): GraphQLObject {
  const id = toGid('ProductVariant', variant.id);
  const self: GraphQLObject = {
    __typename: 'ProductVariant',
    id,
    legacyResourceId: String(variant.id),
    title: variantTitle(variant),
    displayName: `${product.title} - ${variantTitle(variant)}`,
    sku: variant.sku,
    barcode: variant.barcode,
    price: variant.price,
    compareAtPrice: variant.compareAtPrice,
    position: variant.position,
    inventoryQuantity: variant.inventoryQuantity,
    sellableOnlineQuantity: Math.max(0, variant.inventoryQuantity),
    inventoryPolicy: variant.inventoryPolicy.toUpperCase(),
    availableForSale: variant.inventoryPolicy === 'continue' || variant.inventoryQuantity > 0,
    taxable: variant.taxable,
    taxCode: null,
    requiresComponents: false,
    showUnitPrice: false,
    unitPrice: null,
    unitPriceMeasurement: null,
    createdAt: graphqlTime(variant.createdAt),
    updatedAt: graphqlTime(variant.updatedAt),
    defaultCursor: Buffer.from(JSON.stringify({ last_id: variant.id, last_value: variant.id })).toString(
      'base64',
    ),
    selectedOptions: product.options.map((option, index) => ({
      name: option.name,
      value: variant.optionValues[index],
      optionValue: {
        __typename: 'ProductOptionValue',
        id: toGid('ProductOptionValue', option.id * 100 + option.values.indexOf(variant.optionValues[index])),
        name: variant.optionValues[index],
        hasVariants: true,
        linkedMetafieldValue: null,
        swatch: null,
      },
    })),
    inventoryItem: {
      __typename: 'InventoryItem',
      id: toGid('InventoryItem', variant.inventoryItemId),
      legacyResourceId: String(variant.inventoryItemId),
      sku: variant.sku,
      tracked: variant.tracked,
      requiresShipping: true,
      duplicateSkuCount: 0,
      createdAt: graphqlTime(variant.createdAt),
      updatedAt: graphqlTime(variant.updatedAt),
    },
    image: () => {
      const image = product.images.find((i) => i.id === variant.imageId);
      return image ? imageNode(image) : null;
    },
    media: (args: ConnectionArgs) => {
      const images = product.images.filter((i) => i.id === variant.imageId);
      return connection(images, args, (i) => [i.position, i.mediaId], mediaImageNode);
    },
    product: () => productNode(ctx, product),
    ...metafieldFields(ctx, id, () => self),
  };
  return self;
}
