import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { buildClientSchema, type IntrospectionQuery, parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import {
  METAFIELD_DEFINITION_CREATE_MUTATION,
  METAFIELD_DEFINITION_QUERY,
} from './metafield-definitions.documents.js';
import { COLLECTION_ID_BY_HANDLE_QUERY, PRODUCT_SCOPE_FACTS_QUERY } from './product-scope.documents.js';

const fixtures = new URL('../../../../test/fixtures/shopify/', import.meta.url);

describe('the scope and metafield definition documents', () => {
  it('are valid against the real Admin GraphQL 2026-07 schema', () => {
    const raw = gunzipSync(readFileSync(new URL('admin-graphql-2026-07.introspection.json.gz', fixtures)));
    const schema = buildClientSchema((JSON.parse(raw.toString('utf8')) as { data: IntrospectionQuery }).data);
    for (const document of [
      PRODUCT_SCOPE_FACTS_QUERY,
      COLLECTION_ID_BY_HANDLE_QUERY,
      METAFIELD_DEFINITION_QUERY,
      METAFIELD_DEFINITION_CREATE_MUTATION,
    ]) {
      expect(validate(schema, parse(document)).map((e) => e.message)).toEqual([]);
    }
  });
});
