import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AccountDefinition } from '../accounts/account-definition.js';
import { DEFAULT_SEED_PATH } from '../config/catalog-sandbox.config.js';
import { repoRoot } from '../repo-root.js';

/** The default seed's account configuration, without id or keys, for tests to reuse. */
export function seedConfiguration(): Pick<AccountDefinition, 'taxonomy' | 'attributes'> {
  const seed = JSON.parse(readFileSync(join(repoRoot(), DEFAULT_SEED_PATH), 'utf8')) as {
    accounts: AccountDefinition[];
  };
  const demo = seed.accounts[0] as AccountDefinition;
  return { taxonomy: demo.taxonomy, attributes: demo.attributes };
}

/** A product body with the required attributes (name, brand) and any extra ones. */
export function productBody(supplierSku: string, extra: Array<{ key: string; value: unknown }> = []) {
  return {
    product: {
      supplierSku,
      attributes: [
        { key: 'name', value: `Product ${supplierSku}` },
        { key: 'brand', value: 'Acme' },
        ...extra,
      ],
    },
  };
}

/** The value of one attribute in a product record's `attributes`. */
export function attr(record: { attributes: Array<{ key: string; value: unknown }> }, key: string) {
  return record.attributes.find((a) => a.key === key);
}
