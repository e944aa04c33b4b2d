import { AsyncLocalStorage } from 'node:async_hooks';
import { GraphQLError } from 'graphql';

export const MAX_PAGE_SIZE = 250;

/**
 * Set while a bulk operation executes its query: every connection then returns all its items,
 * `first`/`last` neither required nor applied (bulk queries are paginated by Shopify).
 */
export const bulkPaging = new AsyncLocalStorage<true>();

export interface ConnectionArgs {
  first?: number | null;
  last?: number | null;
  after?: string | null;
  before?: string | null;
}

/** Where an item sits in the list's order: its sort value, then its id. */
export type SortKey = [value: string | number, id: number];

/**
 * A Relay connection over an ordered in-memory list, with Shopify-like opaque cursors that hold
 * the item's sort key. Cursors stay valid when items come and go (keyset pagination).
 */
export function connection<T>(
  items: T[],
  args: ConnectionArgs,
  keyOf: (item: T) => SortKey,
  toNode: (item: T) => unknown,
  descending = false,
  maxPageSize = MAX_PAGE_SIZE,
): Record<string, unknown> {
  const size = pageSize(args, maxPageSize);
  const position = (item: T) => items.indexOf(item);
  const order = (item: T, cursor: SortKey) => (descending ? -1 : 1) * compareKeys(keyOf(item), cursor);
  let window = items;
  if (args.after) {
    const after = decodeCursor(args.after);
    window = window.filter((item) => order(item, after) > 0);
  }
  if (args.before) {
    const before = decodeCursor(args.before);
    window = window.filter((item) => order(item, before) < 0);
  }
  const fromEnd =
    args.last !== undefined && args.last !== null && (args.first === undefined || args.first === null);
  const page = fromEnd ? window.slice(Math.max(0, window.length - size)) : window.slice(0, size);
  const first = page[0];
  const last = page[page.length - 1];
  const edges = page.map((item) => ({ cursor: encodeCursor(keyOf(item)), node: toNode(item) }));
  return {
    edges,
    nodes: edges.map((edge) => edge.node),
    pageInfo: {
      hasNextPage: last !== undefined && position(last) < items.length - 1,
      hasPreviousPage: first !== undefined && position(first) > 0,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges[edges.length - 1]?.cursor ?? null,
    },
  };
}

function pageSize(args: ConnectionArgs, max: number): number {
  if (bulkPaging.getStore()) return Number.MAX_SAFE_INTEGER;
  const size = args.first ?? args.last;
  if (size === undefined || size === null) {
    throw new GraphQLError('you must provide one of first or last', { extensions: { code: 'BAD_REQUEST' } });
  }
  if (size < 0)
    throw new GraphQLError('first and last must be non-negative', { extensions: { code: 'BAD_REQUEST' } });
  if (size > max) {
    throw new GraphQLError(`The connection cannot request more than ${max} records`, {
      extensions: { code: 'MAX_PAGE_SIZE_EXCEEDED' },
    });
  }
  return size;
}

export function compareKeys(a: SortKey, b: SortKey): number {
  if (a[0] < b[0]) return -1;
  if (a[0] > b[0]) return 1;
  return a[1] - b[1];
}

export function encodeCursor([value, id]: SortKey): string {
  return Buffer.from(JSON.stringify({ last_id: id, last_value: value })).toString('base64');
}

export function decodeCursor(cursor: string): SortKey {
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64').toString('utf8')) as {
      last_id?: unknown;
      last_value?: unknown;
    };
    const value = parsed.last_value;
    if (typeof parsed.last_id === 'number' && (typeof value === 'string' || typeof value === 'number')) {
      return [value, parsed.last_id];
    }
  } catch {
    // fall through to the error below
  }
  throw new GraphQLError(`Invalid cursor for current pagination sort.`, {
    extensions: { code: 'BAD_REQUEST' },
  });
}
