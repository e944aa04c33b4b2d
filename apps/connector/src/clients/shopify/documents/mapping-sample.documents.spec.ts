import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { buildClientSchema, type IntrospectionQuery, parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { MAPPING_SAMPLE_QUERY } from './mapping-sample.query.js';
import { METAFIELD_DEFINITION_LIST_QUERY } from './metafield-definition-list.query.js';

const fixtures = new URL('../../../../test/fixtures/shopify/', import.meta.url);

describe("the mapping draft's documents", () => {
  it('are valid against the real Admin GraphQL 2026-07 schema', () => {
    const raw = gunzipSync(readFileSync(new URL('admin-graphql-2026-07.introspection.json.gz', fixtures)));
    const schema = buildClientSchema((JSON.parse(raw.toString('utf8')) as { data: IntrospectionQuery }).data);
    for (const document of [MAPPING_SAMPLE_QUERY, METAFIELD_DEFINITION_LIST_QUERY]) {
      expect(validate(schema, parse(document)).map((e) => e.message)).toEqual([]);
    }
  });
});
