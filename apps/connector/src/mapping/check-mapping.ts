import type { AttributeDefinition, TaxonomyNode } from '#lib/catalog-contract';
import type { FieldEntry, MappingFile, OptionEntry } from './model/mapping-file.js';
import { MappingError, type MappingProblem } from './model/mapping-problem.js';
import { sourceKind } from './model/source-fields.js';
import { TaxonomyIndex } from './taxonomy-index.js';
import {
  type ResolvedFieldEntry,
  type ResolvedOptionEntry,
  type ResolvedWriteBackEntry,
  ValidatedMapping,
} from './validated-mapping.js';
import { resolveValue } from './value-resolver.js';
import { compatibilityProblem } from './write-back/write-back-targets.js';

/** The account configuration a mapping is checked against: attribute search and taxonomy. */
export interface CatalogConfiguration {
  attributes: readonly AttributeDefinition[];
  taxonomy: readonly TaxonomyNode[];
}

/**
 * Checks a parsed mapping file against the account's attribute definitions and category tree:
 * every attribute exists; variant entries and options write variant-specific attributes; list
 * fields feed MULTI_SELECT; `currency` only on PRICE; every value-map target and `default` is a
 * value the attribute accepts (DROPDOWN/MULTI_SELECT values that exist, categories that are
 * leaves); every write-back attribute's type is one its target takes (`write-back-targets.ts`).
 * Throws a `MappingError` naming each entry; disabled attributes are warnings.
 */
export function checkMapping(
  file: MappingFile,
  catalog: CatalogConfiguration,
  source?: string,
): ValidatedMapping {
  const definitions = new Map(catalog.attributes.map((d) => [d.key, d]));
  const taxonomy = new TaxonomyIndex(catalog.taxonomy);
  const problems: MappingProblem[] = [];
  const warnings: MappingProblem[] = [];
  const line = (path: string) =>
    file.lines?.get(path) ?? [...(file.lines ?? [])].find(([entry]) => path.startsWith(`${entry}.`))?.[1];
  const add = (path: string, message: string, to = problems) => {
    const at = line(path);
    to.push({ path, message, ...(at === undefined ? {} : { line: at }) });
  };

  const definitionFor = (path: string, key: string, variant: boolean): AttributeDefinition | undefined => {
    const definition = definitions.get(key);
    if (!definition) {
      add(path, `attribute "${key}" does not exist in the catalog account${suggest(key, definitions)}`);
      return undefined;
    }
    if (variant && definition.option.variantable !== true) {
      add(
        path,
        `attribute "${key}" is not variant-specific (option.variantable): a variant cannot hold it; map it at product level`,
      );
    }
    if (definition.option.disabled) add(path, `attribute "${key}" is disabled in the account`, warnings);
    return definition;
  };

  const resolveField = (entry: FieldEntry): ResolvedFieldEntry | undefined => {
    const definition = definitionFor(entry.path, entry.attribute, entry.level === 'variant');
    if (!definition) return undefined;
    const kind = sourceKind(entry.level, entry.field);
    if (kind === 'list' && definition.type !== 'MULTI_SELECT') {
      add(
        entry.path,
        `${entry.field} is a list: it can only feed a MULTI_SELECT attribute, "${entry.attribute}" is ${definition.type}`,
      );
    }
    if (entry.currency !== null && definition.type !== 'PRICE') {
      add(
        entry.path,
        `"currency" applies to PRICE attributes only; "${entry.attribute}" is ${definition.type}`,
      );
    }
    return { ...entry, definition };
  };

  const resolveOption = (entry: OptionEntry): ResolvedOptionEntry | undefined => {
    const definition = definitionFor(entry.path, entry.attribute, true);
    return definition ? { ...entry, definition, currency: null, default: null } : undefined;
  };

  const productEntries = file.product.map(resolveField).filter((e) => e !== undefined);
  const variantEntries = file.variant.map(resolveField).filter((e) => e !== undefined);
  const options = file.options.map(resolveOption).filter((e) => e !== undefined);
  for (const entry of [...productEntries, ...variantEntries, ...options]) {
    checkValues(entry, taxonomy, (path, message) => add(path, message));
  }

  const writeBack: ResolvedWriteBackEntry[] = [];
  for (const entry of file.writeBack) {
    const definition = definitionFor(entry.path, entry.attribute, entry.level === 'variant');
    if (!definition) continue;
    const problem = compatibilityProblem(definition.type, entry.target);
    if (problem) add(entry.path, problem);
    else writeBack.push({ ...entry, definition });
  }

  if (problems.length > 0) throw new MappingError(problems, source);
  return new ValidatedMapping(
    file,
    productEntries,
    variantEntries,
    options,
    writeBack,
    definitions,
    taxonomy,
    warnings,
  );
}

/** Every value-map target and the default must be something the attribute accepts. */
function checkValues(
  entry: ResolvedFieldEntry | ResolvedOptionEntry,
  taxonomy: TaxonomyIndex,
  add: (path: string, message: string) => void,
): void {
  const { definition } = entry;
  if (definition.type === 'MEDIA_GALLERY') {
    add(
      entry.path,
      `"${definition.key}" is a media gallery: media is synced by the media step, not by mapping entries`,
    );
    return;
  }
  const context = { taxonomy, shopCurrency: 'XXX' };
  const exact = { ...entry, values: null, caseSensitive: true, default: null, unknownValues: 'gap' as const };
  for (const [from, to] of entry.values ?? []) {
    if (to === null) continue;
    const resolution = resolveValue(exact, to, context);
    if (resolution.kind === 'gap') add(`${entry.path}.values.${from}`, targetProblem(entry, to, taxonomy));
  }
  if (entry.default !== null) {
    const resolution = resolveValue({ ...exact, default: entry.default }, null, context);
    if (resolution.kind === 'gap')
      add(`${entry.path}.default`, targetProblem(entry, entry.default, taxonomy));
  }
}

function targetProblem(
  entry: ResolvedFieldEntry | ResolvedOptionEntry,
  value: string,
  taxonomy: TaxonomyIndex,
): string {
  const { definition } = entry;
  if (definition.type === 'TREE_NODE') {
    if (!taxonomy.has(value)) return `category "${value}" does not exist in the account's taxonomy`;
    return `category "${value}" is not a leaf (it has ${taxonomy.childrenOf(value).join(', ')}): only leaves may be assigned`;
  }
  if (definition.type === 'DROPDOWN' || definition.type === 'MULTI_SELECT') {
    const allowed = definition.option.values ?? [];
    const near = allowed.find((v) => v.toLowerCase() === value.toLowerCase());
    return `"${value}" is not one of the values of ${definition.key} (${definition.type})${near ? `; did you mean "${near}"?` : `: ${allowed.join(', ')}`}`;
  }
  return `"${value}" is not a valid ${definition.type} value for ${definition.key}`;
}

function suggest(key: string, definitions: ReadonlyMap<string, AttributeDefinition>): string {
  const lower = key.toLowerCase();
  const near = [...definitions.keys()].find(
    (k) => k.toLowerCase() === lower || k.toLowerCase().startsWith(lower),
  );
  return near ? ` (did you mean "${near}"?)` : '';
}
