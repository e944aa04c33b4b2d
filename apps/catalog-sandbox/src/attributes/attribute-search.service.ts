import type { AttributeSearchResponse, CategoryScope } from '#lib/catalog-contract';
import type { Account } from '../accounts/account.js';
import { matchesAll } from '../search/condition-matcher.js';
import { pageOf, parsePagination } from '../search/pagination.js';
import { readSearchBody } from '../search/search-body.js';
import { parseSort, type SortRequest } from '../search/search-sort.js';
import { categoryScope } from './attribute-applicability.js';
import type { AttributeDef } from './attribute-definition.js';
import { toAttributeDefinition } from './attribute-search.definition.js';
import { type AttributeSearchQuery, parseAttributeFilter } from './attribute-search.filter.js';

/** Attribute search's page size: default and maximum (the spec states neither). */
export const ATTRIBUTE_SEARCH_MAX_LIMIT = 500;
export const ATTRIBUTE_SEARCH_DEFAULT_LIMIT = ATTRIBUTE_SEARCH_MAX_LIMIT;

export const ATTRIBUTE_SORT_FIELDS = ['createdAt', 'key', 'displayName'] as const;
type AttributeSortField = (typeof ATTRIBUTE_SORT_FIELDS)[number];

/** Strongest first: the scope reported when an attribute applies to several linked categories. */
const SCOPE_RANK: readonly CategoryScope[] = ['DIRECT', 'INHERITED', 'GLOBAL'];

interface Hit {
  def: AttributeDef;
  scope?: CategoryScope;
}

/** POST /v1/attributes/search over one account's attribute definitions (defaults and disabled included). */
export function searchAttributes(account: Account, body: unknown): AttributeSearchResponse {
  const request = readSearchBody(body);
  const query = parseAttributeFilter(request.filter);
  const sort = parseSort(request.sort, ATTRIBUTE_SORT_FIELDS);
  const page = parsePagination(request.pagination, {
    defaultLimit: ATTRIBUTE_SEARCH_DEFAULT_LIMIT,
    maxLimit: ATTRIBUTE_SEARCH_MAX_LIMIT,
  });
  const hits: Hit[] = [];
  for (const def of account.attributes.all()) {
    const hit = match(def, query, account);
    if (hit) hits.push(hit);
  }
  if (sort) hits.sort(comparator(sort));
  const { items, pagination } = pageOf(hits, page);
  return { attributes: items.map((h) => toAttributeDefinition(h.def, h.scope)), pagination };
}

function match(def: AttributeDef, query: AttributeSearchQuery, account: Account): Hit | undefined {
  if (query.variantable === 'flagged' && !def.variantable) return undefined;
  if (query.variantable === 'unflagged' && def.variantable) return undefined;
  if (query.key.length > 0 && !matchesAll(query.key, def.key)) return undefined;
  if (query.linkedCategories === null) {
    // No category given: GLOBAL selects unlinked attributes, DIRECT/INHERITED linked ones.
    const own: CategoryScope[] = def.categories === null ? ['GLOBAL'] : ['DIRECT', 'INHERITED'];
    return own.some((s) => query.scopes.includes(s)) ? { def } : undefined;
  }
  const scopes = query.linkedCategories
    .filter((id) => account.taxonomy.has(id))
    .map((id) => categoryScope(def, id, account.taxonomy))
    .filter((s): s is CategoryScope => s !== null && query.scopes.includes(s));
  const scope = SCOPE_RANK.find((s) => scopes.includes(s));
  return scope ? { def, scope } : undefined;
}

/** By the field, then by the definition's position (the default order). */
function comparator(sort: SortRequest<AttributeSortField>): (a: Hit, b: Hit) => number {
  const direction = sort.order === 'ASC' ? 1 : -1;
  return (a, b) => {
    const x = sortValue(a.def, sort.field);
    const y = sortValue(b.def, sort.field);
    const byField = x < y ? -1 : x > y ? 1 : 0;
    return byField * direction || a.def.position - b.def.position;
  };
}

function sortValue(def: AttributeDef, field: AttributeSortField): string | number {
  switch (field) {
    case 'createdAt':
      return def.createdAt;
    case 'key':
      return def.key;
    case 'displayName':
      return def.displayName;
    default: {
      const unreachable: never = field;
      throw new Error(`unhandled sort field ${String(unreachable)}`);
    }
  }
}
