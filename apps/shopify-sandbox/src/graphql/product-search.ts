import { GraphQLError } from 'graphql';
import type { ProductRecord } from '../products/product.model.js';

export interface SearchWarning {
  field: string;
  message: string;
}

export interface ProductSearch {
  matches: (product: ProductRecord) => boolean;
  warnings: SearchWarning[];
}

/** What some search fields need besides the product: `collection_id` needs its collections. */
export interface SearchLookups {
  collectionIds?: (product: ProductRecord) => number[];
}

type Comparator = '=' | '>' | '>=' | '<' | '<=';

const TERM = /^(-)?(?:([a-z_]+):)?(>=|<=|>|<|=)?('(?:[^']*)'|"(?:[^"]*)"|\S+)$/;
const TOKEN = /-?(?:[a-z_]+:)?(?:>=|<=|>|<|=)?(?:'[^']*'|"[^"]*"|\S+)/g;

/**
 * Shopify's product search syntax, the part connectors use: terms joined by spaces or AND,
 * `field:value`, comparisons (`updated_at:>'2026-01-01T00:00:00Z'`), `-` or NOT to negate.
 * Fields: updated_at, created_at, id, status, vendor, product_type, tag, title (with `*`),
 * handle, sku, collection_id (given the lookup); a bare word searches titles. Unknown fields are ignored with a warning, as
 * Shopify does. OR and parentheses are not supported and fail clearly.
 */
export function parseProductSearch(query: string, lookups: SearchLookups = {}): ProductSearch {
  const warnings: SearchWarning[] = [];
  const predicates: Array<(product: ProductRecord) => boolean> = [];
  let negateNext = false;
  for (const token of query.match(TOKEN) ?? []) {
    if (token === 'AND') continue;
    if (token === 'NOT') {
      negateNext = true;
      continue;
    }
    if (token === 'OR' || token.startsWith('(') || token.endsWith(')')) {
      throw new GraphQLError(
        `shopify-sandbox does not support OR or parentheses in search queries: "${query}"`,
        {
          extensions: { code: 'NOT_IMPLEMENTED' },
        },
      );
    }
    const match = TERM.exec(token);
    if (!match) continue;
    const [, minus, field, comparator, rawValue] = match;
    const value = rawValue.replace(/^(['"])(.*)\1$/, '$2');
    const predicate = termPredicate(field ?? 'title_text', (comparator ?? '=') as Comparator, value, lookups);
    if (!predicate) {
      warnings.push({ field: field ?? '', message: 'Invalid search field for this query.' });
      negateNext = false;
      continue;
    }
    const negate = Boolean(minus) !== negateNext;
    negateNext = false;
    predicates.push(negate ? (p) => !predicate(p) : predicate);
  }
  return { matches: (product) => predicates.every((predicate) => predicate(product)), warnings };
}

function termPredicate(
  field: string,
  comparator: Comparator,
  value: string,
  lookups: SearchLookups,
): ((product: ProductRecord) => boolean) | undefined {
  const lower = value.toLowerCase();
  switch (field) {
    case 'updated_at':
    case 'created_at': {
      const at = Date.parse(value);
      if (Number.isNaN(at)) {
        throw new GraphQLError(`Invalid date in search query: ${field}:${value}`, {
          extensions: { code: 'BAD_REQUEST' },
        });
      }
      const key = field === 'updated_at' ? 'updatedAt' : 'createdAt';
      return (p) => compare(Math.floor(p[key] / 1000), comparator, Math.floor(at / 1000));
    }
    case 'id':
      return (p) => compare(p.id, comparator, Number(value));
    case 'status':
      return (p) => lower.split(',').includes(p.status);
    case 'vendor':
      return (p) => p.vendor.toLowerCase() === lower;
    case 'product_type':
      return (p) => p.productType.toLowerCase() === lower;
    case 'tag':
      return (p) => p.tags.some((tag) => tag.toLowerCase() === lower);
    case 'handle':
      return (p) => p.handle === value;
    case 'sku':
      return (p) => p.variants.some((v) => v.sku === value);
    case 'title':
      return lower.endsWith('*')
        ? (p) => p.title.toLowerCase().startsWith(lower.slice(0, -1))
        : (p) => p.title.toLowerCase() === lower;
    case 'collection_id': {
      const collectionIds = lookups.collectionIds;
      if (!collectionIds) return undefined;
      return (p) => collectionIds(p).includes(Number(value));
    }
    case 'title_text':
      return (p) => p.title.toLowerCase().includes(lower);
    default:
      return undefined;
  }
}

function compare(actual: number, comparator: Comparator, expected: number): boolean {
  switch (comparator) {
    case '=':
      return actual === expected;
    case '>':
      return actual > expected;
    case '>=':
      return actual >= expected;
    case '<':
      return actual < expected;
    case '<=':
      return actual <= expected;
  }
}
