import type { ProductScope, ScopeStatus } from './model/mapping-file.js';

/**
 * What a scope looks at in one product. The optional facts cost a read of their own: one left
 * undefined is not judged (the caller decides first on what it has, then reads the rest).
 */
export interface ScopeFacts {
  status: ScopeStatus;
  tags: readonly string[];
  vendor: string;
  productType: string;
  /** The collections holding the product (ids and handles). */
  collections?: ReadonlyArray<{ id: string; handle: string }>;
  /** The product's standard category id, null when it has none. */
  categoryId?: string | null;
  /** The scope's metafield value on the product, null when it has none. */
  metafieldValue?: string | null;
}

/** In scope, or out with the first criterion it fails (for the sync record's detail). */
export type ScopeVerdict = { inScope: true } | { inScope: false; reason: string };

/** Which optional facts a scope needs (each costs a read besides the canonical one). */
export interface ScopeNeeds {
  collections: boolean;
  category: boolean;
  metafield: { namespace: string; key: string } | null;
}

const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * Why: one rule for "does this product sync", used by the sync job, the boot comparison and the
 * collection walks. Without a scope only the status decides (`CONNECTOR_SYNC_STATUSES`); with
 * one, every criterion it gives must hold, and `scope.statuses` replaces the variable.
 */
export function scopeVerdict(
  scope: ProductScope | null,
  defaultStatuses: readonly ScopeStatus[],
  facts: ScopeFacts,
): ScopeVerdict {
  const statuses = scope?.statuses ?? defaultStatuses;
  if (!statuses.includes(facts.status)) return out(`status ${facts.status} is not synced`);
  if (!scope) return { inScope: true };
  if (scope.tags.length > 0 && !scope.tags.some((t) => facts.tags.some((tag) => same(tag, t))))
    return out(`no tag of the scope (${scope.tags.join(', ')})`);
  if (scope.vendors.length > 0 && !scope.vendors.some((v) => same(v, facts.vendor)))
    return out(`vendor "${facts.vendor}" is not in the scope`);
  if (scope.productTypes.length > 0 && !scope.productTypes.some((t) => same(t, facts.productType)))
    return out(`product type "${facts.productType}" is not in the scope`);
  if (scope.collections.length > 0 && facts.collections !== undefined) {
    const held = facts.collections;
    const inOne = scope.collections.some((c) =>
      held.some((h) => (c.kind === 'id' ? h.id === c.id : h.handle.toLowerCase() === c.handle)),
    );
    if (!inOne) return out('in no collection of the scope');
  }
  if (
    scope.categories.length > 0 &&
    facts.categoryId !== undefined &&
    !scope.categories.includes(facts.categoryId ?? '')
  )
    return out(`category ${facts.categoryId ?? '(none)'} is not in the scope`);
  if (
    scope.metafield &&
    facts.metafieldValue !== undefined &&
    facts.metafieldValue !== scope.metafield.value
  ) {
    const { namespace, key, value } = scope.metafield;
    return out(`metafield ${namespace}.${key} is not "${value}"`);
  }
  return { inScope: true };
}

/** The optional facts `scopeVerdict` needs for this scope. */
export function scopeNeeds(scope: ProductScope | null): ScopeNeeds {
  return {
    collections: (scope?.collections.length ?? 0) > 0,
    category: (scope?.categories.length ?? 0) > 0,
    metafield: scope?.metafield ? { namespace: scope.metafield.namespace, key: scope.metafield.key } : null,
  };
}

/**
 * Shopify product searches whose results together hold every product the scope takes (and maybe
 * more: the sync job decides each one). One criterion is searched, the most selective the
 * search syntax can express on its own: collections (by id; `collection_id` combines with few
 * filters), else tags, vendors, product types, else the statuses. One search per value, never
 * `OR` (not every backend takes it).
 */
export function scopeSearches(
  scope: ProductScope | null,
  defaultStatuses: readonly ScopeStatus[],
  collectionIds: readonly string[],
): string[] {
  const term = (field: string, value: string) => `${field}:'${value.replaceAll("'", "\\'")}'`;
  if (scope && scope.collections.length > 0)
    return collectionIds.map((id) => `collection_id:${id.replace(/^gid:\/\/shopify\/Collection\//, '')}`);
  if (scope && scope.tags.length > 0) return scope.tags.map((t) => term('tag', t));
  if (scope && scope.vendors.length > 0) return scope.vendors.map((v) => term('vendor', v));
  if (scope && scope.productTypes.length > 0) return scope.productTypes.map((t) => term('product_type', t));
  return (scope?.statuses ?? defaultStatuses).map((s) => `status:${s.toLowerCase()}`);
}

/** The scope in effect as a stable text (sorted lists, the statuses resolved), to tell a change. */
export function scopeKey(scope: ProductScope | null, defaultStatuses: readonly ScopeStatus[]): string {
  const sorted = (list: readonly string[]) => [...list].sort();
  return JSON.stringify({
    tags: sorted(scope?.tags.map((t) => t.toLowerCase()) ?? []),
    vendors: sorted(scope?.vendors.map((v) => v.toLowerCase()) ?? []),
    productTypes: sorted(scope?.productTypes.map((t) => t.toLowerCase()) ?? []),
    collections: sorted(scope?.collections.map((c) => (c.kind === 'id' ? c.id : `handle:${c.handle}`)) ?? []),
    categories: sorted(scope?.categories ?? []),
    statuses: sorted(scope?.statuses ?? defaultStatuses),
    metafield: scope?.metafield ?? null,
  });
}

function out(reason: string): ScopeVerdict {
  return { inScope: false, reason };
}
