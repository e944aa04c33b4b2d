import type { ShopConfig } from '../platform/config/connector.config.js';
import type { MappingFile } from './model/mapping-file.js';
import { MappingError } from './model/mapping-problem.js';
import { loadMappingFile } from './parse-mapping-file.js';

/** A shop's parsed mapping file and where it was read from. */
export interface LoadedMapping {
  path: string;
  file: MappingFile;
}

/** The parsed mapping file of every shop that names one (by shop domain). */
export type ShopMappingFiles = ReadonlyMap<string, LoadedMapping>;

/**
 * Reads and parses every shop's mapping file (`CONNECTOR_SHOP_<KEY>_MAPPING_FILE`), before
 * anything else is built: a missing or broken file stops the boot, with a message naming the
 * shop, the file, and each entry refused (with its line). Files naming another shop are refused.
 * Checks against the catalog account come later, in the background (`ShopMappings`).
 */
export async function loadShopMappingFiles(shops: readonly ShopConfig[]): Promise<ShopMappingFiles> {
  const loaded = new Map<string, LoadedMapping>();
  const problems: string[] = [];
  for (const shop of shops) {
    if (shop.mappingFile === null) continue;
    const variable = `CONNECTOR_SHOP_${shop.key}_MAPPING_FILE`;
    try {
      loaded.set(shop.domain, await loadShopMapping(shop.domain, shop.mappingFile));
    } catch (error) {
      if (error instanceof MappingError) problems.push(`${shop.domain} (${variable}): ${error.message}`);
      else {
        const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
        problems.push(
          `${shop.domain}: ${variable} names a file that cannot be read (${code}): ${shop.mappingFile}`,
        );
      }
    }
  }
  if (problems.length > 0) throw new Error(`Mapping files refused:\n${problems.join('\n')}`);
  return loaded;
}

/**
 * One shop's mapping file, parsed: a `MappingError` when it is broken or names another shop
 * (the file system's error when it cannot be read). Shops that install the app are loaded so,
 * when they join or the operator gives them their own file.
 */
export async function loadShopMapping(domain: string, path: string): Promise<LoadedMapping> {
  const file = await loadMappingFile(path);
  if (file.shop !== null && file.shop.toLowerCase() !== domain) {
    throw new MappingError([{ path: 'shop', message: `the file is for ${file.shop}, not ${domain}` }], path);
  }
  return { path, file };
}
