import { GraphQLError } from 'graphql';
import { parseAnyGid, parseGid, toGid } from '../../common/gid.js';
import { zoneAbbreviation, zoneOffsetMinutes, zoneOffsetText } from '../../common/shop-time.js';
import type { ProductRecord } from '../../products/product.model.js';
import type { AdminContext, GraphQLObject } from '../admin-context.js';
import { type ConnectionArgs, compareKeys, connection, type SortKey } from '../connection.js';
import { parseProductSearch } from '../product-search.js';
import { node as collectionNode, collectionQueries } from './collection-queries.js';
import { metafieldDefinitionQueries } from './metafield-definition-view.js';
import { metafieldNode } from './metafield-view.js';
import { productNode } from './product-view.js';
import { variantNode } from './variant-view.js';
import { webhookSubscriptionNode } from './webhook-subscription-view.js';

type Resolver = (args: never, ctx: AdminContext) => unknown;

interface ProductsArgs extends ConnectionArgs {
  query?: string | null;
  reverse?: boolean | null;
  sortKey?: string | null;
  savedSearchId?: string | null;
}

/** The implemented fields of `QueryRoot`. Any other root field is refused before execution. */
export const queryRoot: Record<string, Resolver> = {
  ...collectionQueries,
  ...metafieldDefinitionQueries,
  product: (args: { id: string }, ctx: AdminContext) => {
    const product = findProduct(ctx, args.id);
    return product ? productNode(ctx, product) : null;
  },
  products: (args: ProductsArgs, ctx: AdminContext) => {
    if (args.savedSearchId) throw notImplemented('products(savedSearchId)');
    let products = ctx.shop.products.list();
    if (args.query) {
      const search = parseProductSearch(args.query, {
        collectionIds: (p) => ctx.shop.collections.collectionsOf(p).map((c) => c.id),
      });
      products = products.filter(search.matches);
      if (search.warnings.length > 0) {
        ctx.searchWarnings.push({ path: ['products'], query: args.query, warnings: search.warnings });
      }
    }
    const key = productSortKey(args.sortKey);
    products.sort((a, b) => compareKeys(key(a), key(b)));
    if (args.reverse) products.reverse();
    return connection(products, args, key, (p) => productNode(ctx, p), Boolean(args.reverse));
  },
  productVariant: (args: { id: string }, ctx: AdminContext) => {
    const id = parseGid(args.id, 'ProductVariant');
    const found = id === undefined ? undefined : ctx.shop.products.findVariant(id);
    return found ? variantNode(ctx, found.product, found.variant) : null;
  },
  node: (args: { id: string }, ctx: AdminContext) => resolveNode(ctx, args.id),
  nodes: (args: { ids: string[] }, ctx: AdminContext) => args.ids.map((id) => resolveNode(ctx, id)),
  shop: (_args: never, ctx: AdminContext) => ({
    __typename: 'Shop',
    id: toGid('Shop', ctx.shop.id),
    name: ctx.shop.name,
    myshopifyDomain: ctx.shop.domain,
    url: `https://${ctx.shop.domain}`,
    email: `owner@${ctx.shop.domain}`,
    currencyCode: ctx.shop.currencyCode,
    ianaTimezone: ctx.timeZone,
    timezoneOffsetMinutes: zoneOffsetMinutes(ctx.clock.now(), ctx.timeZone),
    timezoneOffset: zoneOffsetText(ctx.clock.now(), ctx.timeZone),
    timezoneAbbreviation: zoneAbbreviation(ctx.clock.now(), ctx.timeZone),
  }),
  // The installation of the app whose token asks: the scopes that token carries.
  currentAppInstallation: (_args: never, ctx: AdminContext) => ({
    __typename: 'AppInstallation',
    id: toGid('AppInstallation', ctx.shop.id),
    accessScopes: (ctx.scopes ?? []).map((handle) => ({
      __typename: 'AccessScope',
      handle,
      description: handle,
    })),
  }),
  webhookSubscription: (args: { id: string }, ctx: AdminContext) => {
    const id = parseGid(args.id, 'WebhookSubscription');
    const record = id === undefined ? undefined : ctx.shop.subscriptions.get(id);
    return record ? webhookSubscriptionNode(record) : null;
  },
  webhookSubscriptions: (
    args: ConnectionArgs & { topics?: string[] | null; uri?: string | null; callbackUrl?: string | null },
    ctx: AdminContext,
  ) => {
    const uri = args.uri ?? args.callbackUrl;
    const records = ctx.shop.subscriptions
      .list()
      .filter((s) => !args.topics || args.topics.includes(s.topic))
      .filter((s) => !uri || s.uri === uri);
    return connection(records, args, (s) => [s.id, s.id], webhookSubscriptionNode);
  },
};

export function findProduct(ctx: AdminContext, gid: string): ProductRecord | undefined {
  const id = parseGid(gid, 'Product');
  return id === undefined ? undefined : ctx.shop.products.get(id);
}

function resolveNode(ctx: AdminContext, gid: string): GraphQLObject | null {
  const parsed = parseAnyGid(gid);
  if (!parsed) return null;
  switch (parsed.type) {
    case 'Product': {
      const product = ctx.shop.products.get(parsed.id);
      return product ? productNode(ctx, product) : null;
    }
    case 'ProductVariant': {
      const found = ctx.shop.products.findVariant(parsed.id);
      return found ? variantNode(ctx, found.product, found.variant) : null;
    }
    case 'Metafield': {
      const record = ctx.shop.metafields.findById(parsed.id);
      if (!record) return null;
      return metafieldNode(record, () => resolveNode(ctx, record.ownerId) ?? {});
    }
    case 'Collection': {
      const record = ctx.shop.collections.get(parsed.id);
      return record ? collectionNode(ctx, record) : null;
    }
    case 'WebhookSubscription': {
      const record = ctx.shop.subscriptions.get(parsed.id);
      return record ? webhookSubscriptionNode(record) : null;
    }
    default:
      return null;
  }
}

function productSortKey(sortKey: string | null | undefined): (p: ProductRecord) => SortKey {
  switch (sortKey ?? 'ID') {
    case 'ID':
      return (p) => [p.id, p.id];
    case 'UPDATED_AT':
      return (p) => [Math.floor(p.updatedAt / 1000), p.id];
    case 'CREATED_AT':
      return (p) => [Math.floor(p.createdAt / 1000), p.id];
    case 'TITLE':
      return (p) => [p.title.toLowerCase(), p.id];
    case 'VENDOR':
      return (p) => [p.vendor.toLowerCase(), p.id];
    case 'PRODUCT_TYPE':
      return (p) => [p.productType.toLowerCase(), p.id];
    default:
      throw notImplemented(`products(sortKey: ${sortKey})`);
  }
}

export function notImplemented(what: string): GraphQLError {
  return new GraphQLError(`${what} is not implemented by shopify-sandbox`, {
    extensions: { code: 'NOT_IMPLEMENTED' },
  });
}
