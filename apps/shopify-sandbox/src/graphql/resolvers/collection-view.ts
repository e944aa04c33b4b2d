import type { CollectionRecord } from '../../collections/collection.store.js';
import { parseGid, toGid } from '../../common/gid.js';
import { graphqlTime } from '../../common/shop-time.js';
import type { ProductRecord } from '../../products/product.model.js';
import type { AdminContext, GraphQLObject } from '../admin-context.js';
import { type ConnectionArgs, connection } from '../connection.js';
import { metafieldFields } from './metafield-view.js';

/** REST `sort_order` → GraphQL `CollectionSortOrder`. */
const SORT_ORDER: Readonly<Record<string, string>> = {
  'alpha-asc': 'ALPHA_ASC',
  'alpha-desc': 'ALPHA_DESC',
  'best-selling': 'BEST_SELLING',
  created: 'CREATED',
  'created-desc': 'CREATED_DESC',
  manual: 'MANUAL',
  'price-asc': 'PRICE_ASC',
  'price-desc': 'PRICE_DESC',
};

/**
 * A collection as GraphQL `Collection`: its fields, `ruleSet` for smart ones, and its products
 * (a connection, in the collection's order). `productNode` is passed in to avoid an import cycle.
 */
export function collectionNode(
  ctx: AdminContext,
  collection: CollectionRecord,
  productNode: (product: ProductRecord) => GraphQLObject,
): GraphQLObject {
  const id = toGid('Collection', collection.id);
  const products = () => ctx.shop.collections.productsOf(collection);
  const self: GraphQLObject = {
    __typename: 'Collection',
    id,
    legacyResourceId: String(collection.id),
    title: collection.title,
    handle: collection.handle,
    descriptionHtml: collection.bodyHtml ?? '',
    description: (collection.bodyHtml ?? '')
      .replace(/<[^>]*>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim(),
    sortOrder: SORT_ORDER[collection.sortOrder] ?? 'MANUAL',
    templateSuffix: collection.templateSuffix,
    updatedAt: graphqlTime(collection.updatedAt),
    image: null,
    seo: { __typename: 'SEO', title: null, description: null },
    ruleSet:
      collection.kind === 'smart'
        ? {
            __typename: 'CollectionRuleSet',
            appliedDisjunctively: collection.disjunctive,
            rules: collection.rules.map((rule) => ({
              __typename: 'CollectionRule',
              column: rule.column.toUpperCase(),
              relation: rule.relation.toUpperCase(),
              condition: rule.condition,
              conditionObject: null,
            })),
          }
        : null,
    productsCount: { __typename: 'Count', count: products().length, precision: 'EXACT' },
    hasProduct: (args: { id: string }) => {
      const productId = parseGid(args.id, 'Product');
      return products().some((p) => p.id === productId);
    },
    products: (args: ConnectionArgs & { reverse?: boolean | null }) => {
      const list = args.reverse ? products().reverse() : products();
      const position = new Map(products().map((p, index) => [p.id, index]));
      return connection(
        list,
        args,
        (p) => [position.get(p.id) ?? 0, p.id],
        (p) => productNode(p),
        Boolean(args.reverse),
      );
    },
    ...metafieldFields(ctx, id, () => self),
  };
  return self;
}
