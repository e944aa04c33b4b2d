import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { buildClientSchema, type IntrospectionQuery, parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { SHOP_CURRENCY_QUERY } from '../../clients/shopify/documents/shop-currency.query.js';

const schemaFile = new URL(
  '../../../test/fixtures/shopify/admin-graphql-2026-07.introspection.json.gz',
  import.meta.url,
);

describe('SHOP_CURRENCY_QUERY', () => {
  it('is valid against the real Admin GraphQL 2026-07 schema', () => {
    const raw = gunzipSync(readFileSync(schemaFile)).toString('utf8');
    const schema = buildClientSchema((JSON.parse(raw) as { data: IntrospectionQuery }).data);
    expect(validate(schema, parse(SHOP_CURRENCY_QUERY)).map((e) => e.message)).toEqual([]);
  });
});
