import type { AttributeValue } from '#lib/catalog-contract';
import {
  type CanonicalProduct,
  type CanonicalVariant,
  isSimpleProduct,
  legacyIdOf,
} from '../../clients/shopify/canonical-product.js';
import { readProductField, readVariantField } from '../../mapping/model/source-fields.js';
import { Dependencies, type Dependency, type ValidatedMapping } from '../../mapping/validated-mapping.js';
import type { ResolvableEntry } from '../../mapping/value-resolver.js';
import { resolveValue } from '../../mapping/value-resolver.js';
import type { MappingGap, PlanNote, RecordKind } from './sync-plan.js';

/** What one catalog record should hold, before it is compared with what was last applied. */
export interface TargetRecord {
  kind: RecordKind;
  /** Null for the product's own record. */
  shopifyVariantId: string | null;
  variant: CanonicalVariant | null;
  /** The attributes this record is compared on, in mapping order: absent from `values` means cleared. */
  scope: readonly string[];
  /** Mapped values (`null`: nothing to hold). */
  values: Map<string, AttributeValue>;
  /** Attributes left out because of a gap: whatever the record holds stays. */
  leftOut: Set<string>;
  /** Attributes that got their entry's `default` because Shopify's field was empty. */
  defaulted: Set<string>;
  gaps: Array<Omit<MappingGap, 'record'>>;
  dependencies: Dependency[];
}

export interface Targets {
  product: TargetRecord;
  /** One per Shopify variant for a product with options; none for a simple product. */
  variants: TargetRecord[];
  notes: PlanNote[];
}

/**
 * Builds the target records of a product through the mapping: the product's own record (simple:
 * product and default-variant fields; parent: product fields, plus variant fields marked
 * `parent: firstVariant` from the first variant), and one record per variant (variant fields and
 * options, so only variant-specific attributes: inherited ones are never sent on variants).
 */
export function buildTargets(
  product: CanonicalProduct,
  mapping: ValidatedMapping,
  shopCurrency: string | null,
): Targets {
  const context = { taxonomy: mapping.taxonomy, shopCurrency };
  const simple = isSimpleProduct(product);
  const first = product.variants[0] ?? null;
  const productLevel = [...mapping.productEntries, ...mapping.variantEntries, ...mapping.options].map(
    (e) => e.attribute,
  );
  const variantLevel = [...mapping.variantEntries, ...mapping.options].map((e) => e.attribute);
  const notes: PlanNote[] = [];

  const apply = (target: TargetRecord, entry: ResolvableEntry, raw: string | string[] | null) => {
    if (mapping.isValueDependent(entry)) target.dependencies.push(Dependencies.value(entry, raw));
    const resolution = resolveValue(entry, raw, context);
    if (resolution.kind === 'gap') {
      target.leftOut.add(entry.attribute);
      const { kind: _kind, ...gap } = resolution;
      target.gaps.push({ entry: entry.path, attribute: entry.attribute, ...gap });
      return;
    }
    target.values.set(entry.attribute, resolution.value);
    if (raw === null && entry.default !== null) target.defaulted.add(entry.attribute);
  };

  const own = newTarget(simple ? 'simple' : 'parent', null, null, productLevel);
  own.dependencies.push(Dependencies.entries('product'), Dependencies.entries('variant'));
  for (const entry of mapping.productEntries)
    apply(own, entry, readProductField(product, entry.field as never));
  for (const entry of mapping.variantEntries) {
    if (!simple && entry.parent !== 'firstVariant') continue;
    apply(own, entry, first ? readVariantField(first, entry.field as never) : null);
  }
  if (simple) return { product: own, variants: [], notes };

  const unmapped = new Set<string>();
  const variants = product.variants.map((variant) => {
    const target = newTarget('variant', legacyIdOf(variant.legacyResourceId), variant, variantLevel);
    target.dependencies.push(Dependencies.entries('variant'));
    for (const entry of mapping.variantEntries)
      apply(target, entry, readVariantField(variant, entry.field as never));
    for (const selected of variant.selectedOptions) {
      target.dependencies.push(Dependencies.option(selected.name));
      const option = mapping.optionFor(selected.name);
      if (option) apply(target, option, selected.value.trim() === '' ? null : selected.value);
      else unmapped.add(selected.name);
    }
    return target;
  });
  for (const option of unmapped) {
    notes.push({
      code: 'unmapped-option',
      option,
      message: `option "${option}" is not mapped (variant.options): its values are not sent to the catalog`,
    });
  }
  return { product: own, variants, notes };
}

function newTarget(
  kind: RecordKind,
  shopifyVariantId: string | null,
  variant: CanonicalVariant | null,
  scope: string[],
): TargetRecord {
  return {
    kind,
    shopifyVariantId,
    variant,
    scope: [...new Set(scope)],
    values: new Map(),
    leftOut: new Set(),
    defaulted: new Set(),
    gaps: [],
    dependencies: [],
  };
}
