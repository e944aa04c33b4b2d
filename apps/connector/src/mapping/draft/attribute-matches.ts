import type { AttributeDefinition, AttributeType } from '#lib/catalog-contract';
import type { ListedMetafieldDefinition } from '../../clients/shopify/mapping-sample-reads.js';
import { METAFIELD_NAME_RULES } from '../write-back/metafield-types.data.js';
import type { DraftDecision } from './draft-decision.js';
import { likeness, sameName } from './name-match.js';
import type { NameCount, SampledOption } from './shop-sample.js';

/** Attributes a name never matches on its own: set by the connector, or mapped on purpose. */
const NOT_BY_NAME = new Set(['name', 'brand', 'supplierSku', 'skuId', 'media', 'productCategory']);
/** Types no Shopify text feeds by name (categories are ids, galleries the media step's). */
const NOT_FED: readonly AttributeType[] = ['TREE_NODE', 'MEDIA_GALLERY', 'MEASURE'];
const CHOICES: readonly AttributeType[] = ['DROPDOWN', 'MULTI_SELECT'];

/** An option with the attribute its name agrees with. */
export interface OptionDraft {
  option: SampledOption;
  attribute: AttributeDefinition;
  /** Other option names of the shop that match the same attribute (`Colour` beside `Color`). */
  aliases: string[];
  /** Values that are no allowed value as spelled, but one by name (`Smalls` -> `Small`). */
  values: Array<readonly [string, string]>;
  /** Values seen that no allowed value matches. */
  unmatched: NameCount[];
}

/** A metafield definition with the attribute its key or name agrees with. */
export interface MetafieldDraft {
  field: string;
  definition: ListedMetafieldDefinition;
  attribute: AttributeDefinition;
}

/** The account's attributes a name may match: enabled, fed by values, not the connector's own. */
export function matchable(attributes: readonly AttributeDefinition[]): AttributeDefinition[] {
  return attributes.filter((d) => !d.option.disabled && !NOT_BY_NAME.has(d.key) && !NOT_FED.includes(d.type));
}

/** The attribute whose key or display name agrees with `name` (ignoring case, spaces, plural). */
function byName(name: string, attributes: readonly AttributeDefinition[]): AttributeDefinition | undefined {
  return attributes.find((d) => sameName(name, d.key) || sameName(name, d.displayName));
}

/**
 * Why: an option (`Size`) feeds the variant-specific attribute of the same name; its values
 * must be the attribute's allowed values (DROPDOWN, MULTI_SELECT), matched ignoring case by the
 * connector itself, so only values that match by name alone are written out, and the rest are
 * a decision. An option no attribute matches is a decision too: its values are not sent.
 */
export function matchOptions(
  options: readonly SampledOption[],
  attributes: readonly AttributeDefinition[],
  used: Set<string>,
): { drafts: OptionDraft[]; decisions: DraftDecision[] } {
  const variantable = attributes.filter((d) => d.option.variantable === true && d.type !== 'PRICE');
  const drafts: OptionDraft[] = [];
  const decisions: DraftDecision[] = [];
  for (const option of options) {
    const attribute = byName(option.name, variantable);
    const earlier = attribute && drafts.find((d) => d.attribute.key === attribute.key);
    if (earlier) {
      earlier.aliases.push(option.name);
      continue;
    }
    const subject = `option ${JSON.stringify(option.name)}`;
    if (!attribute || used.has(attribute.key)) {
      const near = variantable
        .filter((d) => !used.has(d.key))
        .map((d) => ({
          key: d.key,
          score: Math.max(likeness(option.name, d.key), likeness(option.name, d.displayName)),
        }))
        .filter((c) => c.score >= 0.35)
        .sort((a, b) => b.score - a.score)
        .slice(0, 5)
        .map((c) => c.key);
      decisions.push({
        kind: 'option-unmatched',
        subject,
        entry: 'variant.options',
        products: option.products,
        message: `${unmatchedOption(option.name, attribute, attributes)}: its values are not sent to the catalog until it is mapped`,
        candidates: near,
      });
      continue;
    }
    used.add(attribute.key);
    const draft: OptionDraft = { option, attribute, aliases: [], values: [], unmatched: [] };
    if (CHOICES.includes(attribute.type)) matchValues(draft);
    drafts.push(draft);
    if (draft.unmatched.length > 0) {
      const shown = draft.unmatched.map((v) => `"${v.name}"`).join(', ');
      decisions.push({
        kind: 'option-values',
        subject,
        entry: `variant.options.${option.name}.values`,
        products: Math.min(
          option.products,
          draft.unmatched.reduce((sum, v) => sum + v.products, 0),
        ),
        message: `${shown} ${draft.unmatched.length === 1 ? 'is' : 'are'} not among the values of ${attribute.key} (${attribute.type}): map ${draft.unmatched.length === 1 ? 'it' : 'each'} to one in the file, or add ${draft.unmatched.length === 1 ? 'it' : 'them'} to the attribute in the catalog`,
        candidates: (attribute.option.values ?? []).slice(0, 30),
      });
    }
  }
  return { drafts, decisions };
}

/** Why an option matched no attribute: none of its name, one fed already, or one a variant cannot hold. */
function unmatchedOption(
  name: string,
  taken: AttributeDefinition | undefined,
  attributes: readonly AttributeDefinition[],
): string {
  if (taken) return `no variant-specific attribute of that name is free (${taken.key} is fed already)`;
  const product = byName(name, attributes);
  if (product)
    return `attribute "${product.key}" has that name but is not variant-specific (a variant cannot hold it)`;
  return 'no variant-specific attribute of that name';
}

function matchValues(draft: OptionDraft): void {
  const allowed = draft.attribute.option.values ?? [];
  const exact = new Set(allowed.map((v) => v.trim().toLowerCase()));
  for (const value of draft.option.values) {
    if (exact.has(value.name.trim().toLowerCase())) continue;
    const near = allowed.filter((v) => sameName(value.name, v));
    if (near.length === 1) draft.values.push([value.name, near[0] as string]);
    else draft.unmatched.push(value);
  }
}

/**
 * Why: a metafield definition (`custom.material`) feeds the attribute its key or name agrees
 * with, at its level (a variant's metafield only a variant-specific attribute); a `list.*`
 * metafield only a MULTI_SELECT. Definitions no attribute takes are returned as they are, for
 * the file to list; reserved namespaces (another app's `app--<id>`) are not readable.
 */
export function matchMetafields(
  definitions: readonly ListedMetafieldDefinition[],
  level: 'product' | 'variant',
  attributes: readonly AttributeDefinition[],
  used: Set<string>,
): { drafts: MetafieldDraft[]; unmatched: ListedMetafieldDefinition[] } {
  const drafts: MetafieldDraft[] = [];
  const unmatched: ListedMetafieldDefinition[] = [];
  const rules = METAFIELD_NAME_RULES;
  for (const definition of definitions) {
    const { namespace, key } = definition;
    const readable =
      !namespace.startsWith('app--') &&
      namespace.length >= rules.namespace.min &&
      namespace.length <= rules.namespace.max &&
      rules.characters.test(namespace) &&
      key.length >= rules.key.min &&
      key.length <= rules.key.max &&
      rules.characters.test(key);
    const list = definition.type.startsWith('list.');
    const fits = (d: AttributeDefinition) =>
      !used.has(d.key) &&
      (level === 'product' || d.option.variantable === true) &&
      (!list || d.type === 'MULTI_SELECT');
    const attribute = readable
      ? (byName(key, attributes.filter(fits)) ?? byName(definition.name, attributes.filter(fits)))
      : undefined;
    if (!attribute) {
      if (readable) unmatched.push(definition);
      continue;
    }
    used.add(attribute.key);
    drafts.push({ field: `metafields.${namespace}.${key}`, definition, attribute });
  }
  return { drafts, unmatched };
}
