import type { MappingFile, WriteBackEntry } from './model/mapping-file.js';
import type { MappingProblem } from './model/mapping-problem.js';

/** Written as top-level fields (`supplierSku`) or by the platform (`skuId`), never as attributes. */
const SYSTEM_ATTRIBUTES = ['skuId', 'supplierSku'];
/** The spec: "Must include name and brand" on product creation. */
export const REQUIRED_ON_CREATE = ['name', 'brand'] as const;

/**
 * The rules a mapping file must keep whatever the catalog account holds, so a broken file is
 * refused at boot even while the catalog is unreachable: one owner per field (a catalog attribute
 * takes one inbound source; a Shopify field is either an inbound source or a write-back target;
 * an attribute fed by Shopify is never written back), option names and aliases unique, the
 * attributes the catalog requires on create fed, no system attribute or media as a target.
 */
export function checkOwnership(file: MappingFile): MappingProblem[] {
  const problems: MappingProblem[] = [];
  const add = (path: string, message: string) => problems.push({ path, message });
  const inbound = [...file.product, ...file.variant, ...file.options];

  const ownerOf = new Map<string, string>();
  for (const entry of inbound) {
    if (SYSTEM_ATTRIBUTES.includes(entry.attribute)) {
      add(
        entry.path,
        `"${entry.attribute}" is not an attribute to map: the connector sets it as a top-level field`,
      );
      continue;
    }
    if (entry.attribute === 'media') {
      add(entry.path, '"media" is synced by the media step, not by mapping entries');
      continue;
    }
    const owner = ownerOf.get(entry.attribute);
    if (owner !== undefined) {
      add(entry.path, `attribute "${entry.attribute}" already has an owner, ${owner}: a field has one owner`);
    } else ownerOf.set(entry.attribute, entry.path);
  }

  const optionNames = new Map<string, string>();
  for (const option of file.options) {
    for (const name of [option.name, ...option.aliases]) {
      const key = name.trim().toLowerCase();
      const earlier = optionNames.get(key);
      if (earlier !== undefined && earlier !== option.path) {
        add(
          option.path,
          `option name "${name}" is also matched by ${earlier} (names and aliases match ignoring case)`,
        );
      } else optionNames.set(key, option.path);
    }
  }

  for (const required of REQUIRED_ON_CREATE) {
    if (!file.product.some((entry) => entry.attribute === required)) {
      add('product', `no product field feeds "${required}": the catalog requires it to create a product`);
    }
  }

  const sources = new Map(
    [...file.product, ...file.variant].map((entry) => [`${entry.level}:${entry.field}`, entry.path]),
  );
  const targets = new Map<string, string>();
  for (const entry of file.writeBack) {
    const inboundOwner = ownerOf.get(entry.attribute);
    if (inboundOwner !== undefined) {
      add(
        entry.path,
        `attribute "${entry.attribute}" is fed from Shopify by ${inboundOwner}: a field has one owner (keep source data and AI content in separate attributes)`,
      );
    }
    const field = shopifyFieldOf(entry);
    const source = sources.get(`${entry.level}:${field}`);
    if (source !== undefined) {
      add(entry.path, `Shopify field "${field}" is an inbound source (${source}): a field has one owner`);
    }
    const earlier = targets.get(`${entry.level}:${field}`);
    if (earlier !== undefined && entry.target.kind !== 'tags') {
      add(
        entry.path,
        `Shopify ${entry.level} field "${field}" is already the target of ${earlier}: a field has one owner`,
      );
    } else targets.set(`${entry.level}:${field}`, entry.path);
  }
  return problems;
}

/** The Shopify field a write-back entry writes: `seo.title`, `tags`, `metafields.<ns>.<key>`. */
export function shopifyFieldOf(entry: WriteBackEntry): string {
  switch (entry.target.kind) {
    case 'field':
      return entry.target.field;
    case 'tags':
      return 'tags';
    case 'metafield':
      return `metafields.${entry.target.namespace}.${entry.target.key}`;
  }
}
