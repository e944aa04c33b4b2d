import type { CollectionKind } from './collection.store.js';
import { parseRules, type SmartRule } from './smart-rules.js';

/** REST `sort_order` values (the REST Collection resource; `CollectionSortOrder` in GraphQL). */
export const SORT_ORDERS = [
  'alpha-asc',
  'alpha-desc',
  'best-selling',
  'created',
  'created-desc',
  'manual',
  'price-asc',
  'price-desc',
] as const;

/** A checked `custom_collection` / `smart_collection` body; absent fields are left as they are. */
export interface CollectionInput {
  title?: string;
  handle?: string;
  bodyHtml?: string | null;
  sortOrder?: string;
  templateSuffix?: string | null;
  published?: boolean;
  publishedScope?: 'web' | 'global';
  /** Custom collections: products to put in on create. */
  productIds?: number[];
  /** Smart collections. */
  rules?: SmartRule[];
  disjunctive?: boolean;
}

type Parsed = { input: CollectionInput } | { errors: Record<string, string[]> };

/**
 * Reads `{"custom_collection": {...}}` or `{"smart_collection": {...}}` as Shopify's REST API
 * takes it; refusals in its `{"errors": {"field": ["message"]}}` shape.
 */
export function parseCollectionBody(
  body: unknown,
  kind: CollectionKind,
  change: 'create' | 'update',
): Parsed {
  const root = `${kind}_collection`;
  const raw = (body as Record<string, unknown> | null)?.[root];
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return { errors: { [root]: ['Required parameter missing or invalid'] } };
  }
  const given = raw as Record<string, unknown>;
  const errors: Record<string, string[]> = {};
  const input: CollectionInput = {};
  const text = (field: string) =>
    given[field] === null || given[field] === undefined ? undefined : String(given[field]);
  const title = text('title');
  if (title !== undefined) input.title = title.trim();
  if ((change === 'create' || 'title' in given) && !input.title) errors.title = ["can't be blank"];
  else if (input.title && [...input.title].length > 255)
    errors.title = ['is too long (maximum is 255 characters)'];
  if (text('handle') !== undefined) input.handle = text('handle');
  if ('body_html' in given) input.bodyHtml = text('body_html') ?? null;
  if ('template_suffix' in given) input.templateSuffix = text('template_suffix') || null;
  const sortOrder = text('sort_order');
  if (sortOrder !== undefined) {
    if ((SORT_ORDERS as readonly string[]).includes(sortOrder)) input.sortOrder = sortOrder;
    else errors.sort_order = ['is not included in the list'];
  }
  if ('published' in given) input.published = given.published !== false && given.published !== 'false';
  const scope = text('published_scope');
  if (scope !== undefined) {
    if (scope === 'web' || scope === 'global') input.publishedScope = scope;
    else errors.published_scope = ['is not included in the list'];
  }
  if (kind === 'custom' && Array.isArray(given.collects)) {
    input.productIds = given.collects.map((c) => Number((c as Record<string, unknown> | null)?.product_id));
    if (input.productIds.some((id) => !Number.isSafeInteger(id))) errors.collects = ['product_id is invalid'];
  }
  if (kind === 'smart') {
    if ('rules' in given || change === 'create') {
      const rules = parseRules(given.rules);
      if ('errors' in rules) errors.rules = rules.errors;
      else input.rules = rules.rules;
    }
    if ('disjunctive' in given)
      input.disjunctive = given.disjunctive === true || given.disjunctive === 'true';
  }
  return Object.keys(errors).length > 0 ? { errors } : { input };
}
