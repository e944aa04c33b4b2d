import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { buildClientSchema, type IntrospectionQuery, parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { PRODUCT_IDS_QUERY } from './documents/product-ids.query.js';
import { PRODUCT_KEYS_QUERY } from './documents/product-keys.query.js';
import { updatedSince } from './shopify-product-pages.js';

const fixtures = new URL('../../../test/fixtures/shopify/', import.meta.url);

function adminSchema() {
  const raw = gunzipSync(readFileSync(new URL('admin-graphql-2026-07.introspection.json.gz', fixtures)));
  return buildClientSchema((JSON.parse(raw.toString('utf8')) as { data: IntrospectionQuery }).data);
}

describe('resync documents', () => {
  const schema = adminSchema();

  it.each([
    ['PRODUCT_IDS_QUERY', PRODUCT_IDS_QUERY],
    ['PRODUCT_KEYS_QUERY', PRODUCT_KEYS_QUERY],
  ])('%s is valid against the real Admin GraphQL 2026-07 schema', (_name, document) => {
    expect(validate(schema, parse(document)).map((e) => e.message)).toEqual([]);
  });

  it('writes "updated since" at second precision, in UTC', () => {
    expect(updatedSince(new Date('2026-11-23T10:00:05.987Z'))).toBe("updated_at:>='2026-11-23T10:00:05Z'");
  });
});
