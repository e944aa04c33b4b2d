import type { CollectionRecord } from '../../collections/collection.store.js';
import { parseGid } from '../../common/gid.js';
import type { AdminContext } from '../admin-context.js';
import { type ConnectionArgs, compareKeys, connection, type SortKey } from '../connection.js';
import { collectionNode } from './collection-view.js';
import { productNode } from './product-view.js';

interface CollectionsArgs extends ConnectionArgs {
  query?: string | null;
  reverse?: boolean | null;
  sortKey?: string | null;
}

/** The collection fields of `QueryRoot`: `collection`, `collections`, `collectionByHandle`, `collectionByIdentifier`. */
export const collectionQueries = {
  collection: (args: { id: string }, ctx: AdminContext) => {
    const id = parseGid(args.id, 'Collection');
    const record = id === undefined ? undefined : ctx.shop.collections.get(id);
    return record ? node(ctx, record) : null;
  },
  collectionByHandle: (args: { handle: string }, ctx: AdminContext) => {
    const record = ctx.shop.collections.byHandle(args.handle);
    return record ? node(ctx, record) : null;
  },
  collectionByIdentifier: (
    args: { identifier: { id?: string | null; handle?: string | null } },
    ctx: AdminContext,
  ) => {
    const { id, handle } = args.identifier;
    const numeric = id ? parseGid(id, 'Collection') : undefined;
    const record =
      numeric !== undefined
        ? ctx.shop.collections.get(numeric)
        : handle
          ? ctx.shop.collections.byHandle(handle)
          : undefined;
    return record ? node(ctx, record) : null;
  },
  collections: (args: CollectionsArgs, ctx: AdminContext) => {
    let records = ctx.shop.collections.list();
    if (args.query) records = records.filter(collectionSearch(args.query));
    const key = sortKey(args.sortKey);
    records.sort((a, b) => compareKeys(key(a), key(b)));
    if (args.reverse) records.reverse();
    return connection(records, args, key, (c) => node(ctx, c), Boolean(args.reverse));
  },
};

/** A collection as `Collection`, its products as `Product`. */
export function node(ctx: AdminContext, record: CollectionRecord) {
  return collectionNode(ctx, record, (p) => productNode(ctx, p));
}

function sortKey(name: string | null | undefined): (c: CollectionRecord) => SortKey {
  switch (name ?? 'ID') {
    case 'TITLE':
      return (c) => [c.title.toLowerCase(), c.id];
    case 'UPDATED_AT':
      return (c) => [Math.floor(c.updatedAt / 1000), c.id];
    default:
      return (c) => [c.id, c.id];
  }
}

/**
 * The collection search fields connectors use: `title` (with `*`), `handle`, `id`,
 * `collection_type:custom|smart`, bare words (title); terms joined by spaces or AND.
 */
export function collectionSearch(query: string): (c: CollectionRecord) => boolean {
  const terms = (query.match(/(?:[a-z_]+:)?(?:'[^']*'|"[^"]*"|\S+)/g) ?? []).filter((t) => t !== 'AND');
  const tests = terms.map((term) => {
    const match = /^(?:([a-z_]+):)?(.*)$/.exec(term) ?? [];
    const field = match[1];
    const value = (match[2] ?? '').replace(/^(['"])(.*)\1$/, '$2').toLowerCase();
    switch (field) {
      case 'title':
        return value.endsWith('*')
          ? (c: CollectionRecord) => c.title.toLowerCase().startsWith(value.slice(0, -1))
          : (c: CollectionRecord) => c.title.toLowerCase() === value;
      case 'handle':
        return (c: CollectionRecord) => c.handle === value;
      case 'id':
        return (c: CollectionRecord) => c.id === Number(value);
      case 'collection_type':
        return (c: CollectionRecord) => c.kind === value;
      case undefined:
        return (c: CollectionRecord) => c.title.toLowerCase().includes(value);
      default:
        return () => true;
    }
  });
  return (c) => tests.every((test) => test(c));
}
