import type {
  AttributeDefinition,
  AttributeSearchRequest,
  AttributeSearchResponse,
  TaxonomyResponse,
} from '#lib/catalog-contract';
import { type CatalogConfiguration, checkMapping } from './check-mapping.js';
import type { MappingFile } from './model/mapping-file.js';
import { MappingError } from './model/mapping-problem.js';
import type { ValidatedMapping } from './validated-mapping.js';

/** The two catalog calls the boot check makes; `CatalogClient` has both. */
export interface CatalogConfigurationReader {
  searchAttributes(body: AttributeSearchRequest): Promise<AttributeSearchResponse>;
  getTaxonomy(): Promise<TaxonomyResponse>;
}

/**
 * The boot check's outcome. `ready`: sync may run with this mapping. `invalid`: the file does not
 * fit the account (the error names each entry); sync must not run. `catalog-unavailable`: the
 * check could not be made (the catalog is down, the key is refused, ...); intake goes on and the
 * check is tried again later.
 */
export type MappingCheckResult =
  | { status: 'ready'; mapping: ValidatedMapping }
  | { status: 'invalid'; error: MappingError }
  | { status: 'catalog-unavailable'; error: unknown };

/**
 * Reads every attribute definition (attribute search, empty filter) and the category tree. The
 * spec states no page size for the attribute search (neither default nor maximum): no limit is
 * asked, and pages are read (offset by what each held) until the catalog says there is no more.
 */
export async function readCatalogConfiguration(
  catalog: CatalogConfigurationReader,
): Promise<CatalogConfiguration> {
  const attributes: AttributeDefinition[] = [];
  for (;;) {
    const page = await catalog.searchAttributes({ filter: {}, pagination: { offset: attributes.length } });
    attributes.push(...page.attributes);
    if (!page.pagination.hasMore || page.attributes.length === 0) break;
  }
  const { tree } = await catalog.getTaxonomy();
  return { attributes, taxonomy: tree };
}

/**
 * Checks a parsed mapping file against the live account, as the connector does at boot and again
 * while the catalog is unreachable or to detect drift. Never throws.
 */
export async function checkMappingAgainstCatalog(
  file: MappingFile,
  catalog: CatalogConfigurationReader,
  source?: string,
): Promise<MappingCheckResult> {
  let configuration: CatalogConfiguration;
  try {
    configuration = await readCatalogConfiguration(catalog);
  } catch (error) {
    return { status: 'catalog-unavailable', error };
  }
  try {
    return { status: 'ready', mapping: checkMapping(file, configuration, source) };
  } catch (error) {
    if (error instanceof MappingError) return { status: 'invalid', error };
    throw error;
  }
}
