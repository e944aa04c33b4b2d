import type { ResolvedWriteBackEntry } from '../../mapping/index.js';

/** A definition as Shopify answers it (`metafieldDefinitions`), as far as the check cares. */
export interface ExistingDefinition {
  id: string;
  type: { name: string };
  access: { admin: string | null; storefront: string | null };
}

/** What to do for one metafield target: create its definition, nothing, or stop the target. */
export type DefinitionAction =
  | { kind: 'create'; input: Record<string, unknown> }
  | { kind: 'exists' }
  | { kind: 'stop'; message: string };

/**
 * Why: a metafield in the app's namespace without a definition is private to the app (the
 * merchant never sees it, themes cannot use it); one whose definition has another type refuses
 * every write (`INVALID_TYPE`). Decides, for one write-back metafield target, from the definition
 * Shopify holds (or none): create one with the mapping's type, name, description, merchant read
 * and write in the admin and the mapping's storefront access; keep one of the same type as it is;
 * stop the target when the type differs, never changing the definition.
 */
export function definitionAction(
  entry: ResolvedWriteBackEntry,
  existing: ExistingDefinition | null,
): DefinitionAction {
  const { target } = entry;
  if (target.kind !== 'metafield') return { kind: 'exists' };
  if (existing) {
    if (existing.type.name === target.type) return { kind: 'exists' };
    return {
      kind: 'stop',
      message:
        `${entry.path}: Shopify's ${ownerLabel(entry)} metafield definition ${target.namespace}.${target.key} has type ` +
        `${existing.type.name}, the mapping says ${target.type}: nothing is pushed to this target until one of ` +
        'them changes (the connector never changes a definition)',
    };
  }
  const settings = entry.metafieldDefinition ?? {
    name: entry.attribute,
    description: null,
    storefront: 'NONE',
  };
  const ownsNamespace = target.namespace === '$app' || target.namespace.startsWith('$app:');
  return {
    kind: 'create',
    input: {
      name: settings.name,
      namespace: target.namespace,
      key: target.key,
      type: target.type,
      ownerType: ownerTypeOf(entry),
      ...(settings.description === null ? {} : { description: settings.description }),
      // Admin access can only be set on the app's own namespace; others are the merchant's already.
      access: {
        ...(ownsNamespace ? { admin: 'MERCHANT_READ_WRITE' } : {}),
        storefront: settings.storefront,
      },
    },
  };
}

/** Shopify's owner type of an entry's metafields. */
export function ownerTypeOf(entry: Pick<ResolvedWriteBackEntry, 'level'>): 'PRODUCT' | 'PRODUCTVARIANT' {
  return entry.level === 'product' ? 'PRODUCT' : 'PRODUCTVARIANT';
}

function ownerLabel(entry: Pick<ResolvedWriteBackEntry, 'level'>): string {
  return entry.level === 'product' ? 'product' : 'variant';
}
