import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { buildClientSchema, type GraphQLSchema, type IntrospectionQuery } from 'graphql';

const SCHEMA_FILE = join('apps', 'shopify-sandbox', 'schema', 'admin-2026-07.introspection.json.gz');

let cached: GraphQLSchema | undefined;

/**
 * The real Shopify Admin GraphQL schema, 2026-07, built once per process from the compressed
 * introspection the app carries (see schema/SOURCE.md). Works from the TypeScript sources
 * and from dist/, since it finds the file from the repository root.
 */
export function adminSchema(): GraphQLSchema {
  if (!cached) {
    const json = gunzipSync(readFileSync(schemaPath())).toString('utf8');
    const introspection = JSON.parse(json) as { data: IntrospectionQuery };
    cached = buildClientSchema(introspection.data, { assumeValid: true });
  }
  return cached;
}

/** The gzipped introspection: `apps/shopify-sandbox/schema/...` under the nearest ancestor holding it. */
export function schemaPath(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, SCHEMA_FILE);
    if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`Cannot find ${SCHEMA_FILE} above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
}
