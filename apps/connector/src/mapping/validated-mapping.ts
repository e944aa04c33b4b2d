import { createHash } from 'node:crypto';
import type { AttributeDefinition } from '#lib/catalog-contract';
import type {
  CanonicalSources,
  MetafieldSource,
} from '../clients/shopify/documents/canonical-product.query.js';
import type { FieldEntry, MappingFile, OptionEntry, WriteBackEntry } from './model/mapping-file.js';
import type { MappingProblem } from './model/mapping-problem.js';
import { metafieldSource } from './model/source-fields.js';
import type { TaxonomyIndex } from './taxonomy-index.js';
import { normalise, type ResolvableEntry, resolveValue } from './value-resolver.js';

/** Entries checked against the account: each carries the attribute definition it writes. */
export interface ResolvedFieldEntry extends FieldEntry, ResolvableEntry {
  currency: string | null;
  default: string | null;
}
export interface ResolvedOptionEntry extends OptionEntry, ResolvableEntry {}
export interface ResolvedWriteBackEntry extends WriteBackEntry {
  definition: AttributeDefinition;
}

/**
 * What a record was built from, as an opaque string the sku map stores per record: the entries
 * of a level, the option entry a Shopify option name found (or none), and how one Shopify value
 * resolved. `ValidatedMapping.configurationHash` turns a list of them into the record's hash.
 */
export type Dependency = string;

/** Builds the dependencies a record is built from (see `Dependency`). */
export const Dependencies = {
  entries: (level: 'product' | 'variant'): Dependency => JSON.stringify(['entries', level]),
  option: (name: string): Dependency => JSON.stringify(['option', name.trim().toLowerCase()]),
  value: (entry: ResolvableEntry, raw: string | string[] | null): Dependency =>
    JSON.stringify([
      'value',
      entry.path,
      raw === null ? null : Array.isArray(raw) ? raw.map((v) => normalise(entry, v)) : normalise(entry, raw),
    ]),
};

/** Types whose accepted values depend on the account (allowed values, the category tree). */
const VALUE_DEPENDENT = new Set(['DROPDOWN', 'MULTI_SELECT', 'TREE_NODE']);

/**
 * A mapping file checked against one catalog account: every entry carries the attribute
 * definition it writes. Also answers the configuration hashes that detect drift: a change to
 * the file or to the account's definitions changes the hash of exactly the records built from
 * what changed (a category map line, an option's entry, one resolved value, a level's entries).
 */
export class ValidatedMapping {
  readonly ownedAttributes: ReadonlySet<string>;
  /** Hash of the whole configuration: unchanged means no record can have drifted. */
  readonly hash: string;
  /** The optional sources the entries read: what the canonical read must ask for besides the base fields. */
  readonly sources: CanonicalSources;
  readonly #optionsByName = new Map<string, ResolvedOptionEntry>();
  readonly #entriesByPath = new Map<string, ResolvableEntry>();

  constructor(
    readonly file: MappingFile,
    readonly productEntries: readonly ResolvedFieldEntry[],
    readonly variantEntries: readonly ResolvedFieldEntry[],
    readonly options: readonly ResolvedOptionEntry[],
    readonly writeBack: readonly ResolvedWriteBackEntry[],
    readonly definitions: ReadonlyMap<string, AttributeDefinition>,
    readonly taxonomy: TaxonomyIndex,
    readonly warnings: readonly MappingProblem[] = [],
  ) {
    const inbound = [...productEntries, ...variantEntries, ...options];
    this.ownedAttributes = new Set(inbound.map((e) => e.attribute));
    for (const entry of inbound) this.#entriesByPath.set(entry.path, entry);
    for (const option of options) {
      for (const name of [option.name, ...option.aliases])
        this.#optionsByName.set(name.trim().toLowerCase(), option);
    }
    this.sources = sourcesOf(productEntries, variantEntries);
    const { lines: _lines, ...content } = file;
    this.hash = digest([
      content,
      [...this.ownedAttributes, ...writeBack.map((w) => w.attribute)]
        .sort()
        .map((k) => definitions.get(k) ?? null),
      taxonomy.leafIds(),
    ]);
  }

  /** The option entry for a Shopify option name (or alias), ignoring case. */
  optionFor(name: string): ResolvedOptionEntry | undefined {
    return this.#optionsByName.get(name.trim().toLowerCase());
  }

  /** Whether an entry's values depend on the account's allowed values or taxonomy (or a value map). */
  isValueDependent(entry: ResolvableEntry): boolean {
    return entry.values !== null || VALUE_DEPENDENT.has(entry.definition.type);
  }

  /** The hash a record built from `dependencies` has under this configuration. */
  configurationHash(dependencies: readonly Dependency[]): string {
    const unique = [...new Set(dependencies)].sort();
    return digest(unique.map((d) => [d, this.fingerprint(d)]));
  }

  /** What one dependency resolves to under this configuration. */
  fingerprint(dependency: Dependency): unknown {
    const parsed = JSON.parse(dependency) as [string, ...unknown[]];
    switch (parsed[0]) {
      case 'entries': {
        const entries = parsed[1] === 'product' ? this.productEntries : this.variantEntries;
        return entries.map((e) => this.#entryShape(e));
      }
      case 'option': {
        const option = this.optionFor(String(parsed[1]));
        return option ? this.#entryShape(option) : null;
      }
      case 'value': {
        const entry = this.#entriesByPath.get(String(parsed[1]));
        if (!entry) return null;
        const raw = parsed[2] as string | string[] | null;
        return [
          this.#entryShape(entry),
          resolveValue(entry, raw, { taxonomy: this.taxonomy, shopCurrency: null }),
        ];
      }
      default:
        return null;
    }
  }

  /** An entry's settings and its attribute's shape, without what value dependencies cover. */
  #entryShape(entry: ResolvableEntry): unknown {
    const { definition, values, ...settings } = entry as ResolvableEntry & Record<string, unknown>;
    const dependent = this.isValueDependent(entry);
    return {
      ...settings,
      values: dependent ? undefined : values,
      definition: {
        key: definition.key,
        type: definition.type,
        variantable: definition.option.variantable === true,
      },
    };
  }
}

/** The metafields (each once, in file order), category and collections the entries read. */
function sourcesOf(
  productEntries: readonly FieldEntry[],
  variantEntries: readonly FieldEntry[],
): CanonicalSources {
  const metafields = (entries: readonly FieldEntry[]): MetafieldSource[] => {
    const found = new Map<string, MetafieldSource>();
    for (const entry of entries) {
      const source = metafieldSource(entry.field);
      if (source) found.set(`${source.namespace}.${source.key}`, source);
    }
    return [...found.values()];
  };
  const fields = new Set(productEntries.map((e) => e.field as string));
  return {
    productMetafields: metafields(productEntries),
    variantMetafields: metafields(variantEntries),
    category: ['category', 'category.fullName', 'category.id'].some((f) => fields.has(f)),
    collections: fields.has('collections'),
  };
}

/** SHA-256 (hex) of a value's JSON with object keys sorted. */
export function digest(value: unknown): string {
  return createHash('sha256').update(stableJson(value)).digest('hex');
}

function stableJson(value: unknown): string {
  if (value instanceof Map) return stableJson([...value]);
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}
