import { type GraphQLResolveInfo, Kind } from 'graphql';
import { toGid } from '../../common/gid.js';
import { graphqlTime } from '../../common/shop-time.js';
import type { ProductRecord, VariantRecord } from '../../products/product.model.js';
import type { AdminContext, GraphQLObject } from '../admin-context.js';
import { type ConnectionArgs, compareKeys, connection, MAX_PAGE_SIZE, type SortKey } from '../connection.js';
import { collectionNode } from './collection-view.js';
import { imageNode, mediaImageNode } from './media-view.js';
import { metafieldFields } from './metafield-view.js';
import { variantNode } from './variant-view.js';

interface SortedConnectionArgs extends ConnectionArgs {
  reverse?: boolean | null;
  sortKey?: string | null;
}

/** A product as GraphQL `Product`: the fields connectors read, with variants, options, media and metafields. */
export function productNode(ctx: AdminContext, product: ProductRecord): GraphQLObject {
  const id = toGid('Product', product.id);
  const self: GraphQLObject = {
    __typename: 'Product',
    id,
    legacyResourceId: String(product.id),
    title: product.title,
    handle: product.handle,
    descriptionHtml: product.bodyHtml ?? '',
    bodyHtml: product.bodyHtml,
    description: (args: { truncateAt?: number | null }) => plainText(product.bodyHtml ?? '', args.truncateAt),
    vendor: product.vendor,
    productType: product.productType,
    status: product.status.toUpperCase(),
    tags: [...product.tags],
    templateSuffix: product.templateSuffix,
    giftCardTemplateSuffix: null,
    isGiftCard: false,
    requiresSellingPlan: false,
    hasVariantsThatRequiresComponents: false,
    category: null,
    combinedListingRole: null,
    onlineStoreUrl: null,
    onlineStorePreviewUrl: null,
    seo: { __typename: 'SEO', title: product.seoTitle, description: product.seoDescription },
    createdAt: graphqlTime(product.createdAt),
    updatedAt: graphqlTime(product.updatedAt),
    publishedAt: product.publishedAt === null ? null : graphqlTime(product.publishedAt),
    defaultCursor: Buffer.from(JSON.stringify({ last_id: product.id, last_value: product.id })).toString(
      'base64',
    ),
    totalInventory: product.variants.reduce((sum, v) => sum + v.inventoryQuantity, 0),
    tracksInventory: product.variants.some((v) => v.tracked),
    hasOnlyDefaultVariant:
      product.variants.length === 1 && product.variants[0].optionValues[0] === 'Default Title',
    hasOutOfStockVariants: product.variants.some((v) => v.inventoryQuantity <= 0),
    variantsCount: { __typename: 'Count', count: product.variants.length, precision: 'EXACT' },
    mediaCount: { __typename: 'Count', count: product.images.length, precision: 'EXACT' },
    options: (args: { first?: number | null }) =>
      product.options.slice(0, args.first ?? undefined).map((option) => ({
        __typename: 'ProductOption',
        id: toGid('ProductOption', option.id),
        name: option.name,
        position: option.position,
        values: [...option.values],
        linkedMetafield: null,
        optionValues: option.values.map((value, index) => ({
          __typename: 'ProductOptionValue',
          id: toGid('ProductOptionValue', option.id * 100 + index),
          name: value,
          hasVariants: true,
          linkedMetafieldValue: null,
          swatch: null,
        })),
      })),
    variants: (args: SortedConnectionArgs, _ctx: unknown, info?: GraphQLResolveInfo) => {
      const key = variantSortKey(args.sortKey);
      const sorted = [...product.variants].sort((a, b) => compareKeys(key(a), key(b)));
      if (args.reverse) sorted.reverse();
      const max = info && isSingleProductQuery(info) ? SINGLE_PRODUCT_VARIANT_PAGE : MAX_PAGE_SIZE;
      return connection(sorted, args, key, (v) => variantNode(ctx, product, v), Boolean(args.reverse), max);
    },
    media: (args: SortedConnectionArgs) => {
      const sorted = args.reverse ? [...product.images].reverse() : product.images;
      return connection(sorted, args, (i) => [i.position, i.mediaId], mediaImageNode, Boolean(args.reverse));
    },
    images: (args: SortedConnectionArgs) => {
      const sorted = args.reverse ? [...product.images].reverse() : product.images;
      return connection(sorted, args, (i) => [i.position, i.id], imageNode, Boolean(args.reverse));
    },
    collections: (args: SortedConnectionArgs) => {
      const list = ctx.shop.collections.collectionsOf(product);
      if (args.reverse) list.reverse();
      return connection(
        list,
        args,
        (c) => [c.id, c.id],
        (c) => collectionNode(ctx, c, (p) => productNode(ctx, p)),
        Boolean(args.reverse),
      );
    },
    featuredMedia: product.images[0] ? mediaImageNode(product.images[0]) : null,
    featuredImage: product.images[0] ? imageNode(product.images[0]) : null,
    ...metafieldFields(ctx, id, () => self),
  };
  return self;
}

/**
 * "As of the 2025-01 version … you can now use a limit of up to 2000 variants when running a
 * query on a single product, such as product or productByHandle. This enhanced limit does not
 * apply if you make multiple queries in one request"
 * (https://shopify.dev/changelog/enhanced-variant-query-limits-for-single-product-queries,
 * read 2026-11-26). Elsewhere a page holds at most 250.
 */
export const SINGLE_PRODUCT_VARIANT_PAGE = 2000;

/** `Product.variants` directly under the only root field, `product` or `productByHandle`. */
function isSingleProductQuery(info: GraphQLResolveInfo): boolean {
  const roots = info.operation.selectionSet.selections;
  const parent = info.path.prev?.prev;
  return (
    info.operation.operation === 'query' &&
    roots.length === 1 &&
    roots[0].kind === Kind.FIELD &&
    ['product', 'productByHandle'].includes(roots[0].name.value) &&
    parent === undefined
  );
}

function variantSortKey(sortKey: string | null | undefined): (v: VariantRecord) => SortKey {
  switch (sortKey ?? 'POSITION') {
    case 'POSITION':
      return (v) => [v.position, v.id];
    case 'ID':
      return (v) => [v.id, v.id];
    case 'SKU':
      return (v) => [v.sku ?? '', v.id];
    case 'TITLE':
      return (v) => [v.optionValues.join(' / '), v.id];
    case 'INVENTORY_QUANTITY':
      return (v) => [v.inventoryQuantity, v.id];
    default:
      return (v) => [v.position, v.id];
  }
}

function plainText(html: string, truncateAt: number | null | undefined): string {
  const text = html
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return truncateAt && text.length > truncateAt ? `${text.slice(0, truncateAt - 3)}...` : text;
}
