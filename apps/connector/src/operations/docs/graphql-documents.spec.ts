import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { buildClientSchema, type IntrospectionQuery, parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { canonicalProductDocument } from '../../clients/shopify/documents/canonical-product.query.js';
import { canonicalVariantsDocument } from '../../clients/shopify/documents/canonical-variants.query.js';
import { WRITE_BACK_DOCUMENTS } from '../../clients/shopify/documents/write-back.documents.js';

const SRC = fileURLToPath(new URL('../..', import.meta.url));
const SCHEMA = new URL(
  '../../../test/fixtures/shopify/admin-graphql-2026-07.introspection.json.gz',
  import.meta.url,
);

/** Every GraphQL document written in the connector's source: template or quoted literals. */
function documentsInSource(): Array<{ file: string; name: string; text: string }> {
  const found: Array<{ file: string; name: string; text: string }> = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts') && !/\.(spec|test-support)\.ts$/.test(entry.name)) {
        const source = readFileSync(path, 'utf8');
        for (const match of source.matchAll(/[`'](\s*(?:query|mutation)\s+([A-Za-z]\w*)[\s\S]*?)[`']/g)) {
          found.push({ file: relative(SRC, path), name: match[2] as string, text: match[1] as string });
        }
      }
    }
  };
  walk(SRC);
  return found;
}

/**
 * Documents built with interpolation, in a finished form: the write-back's, and the canonical
 * read with every optional part (media, metafields of both levels, category, collections; its
 * other forms are checked by `canonical-product.query.spec.ts`), and its further variant pages
 * with variant metafields.
 */
const BUILT_DOCUMENTS: Readonly<Record<string, string>> = {
  ...WRITE_BACK_DOCUMENTS,
  CanonicalProduct: canonicalProductDocument({
    media: true,
    sources: {
      productMetafields: [{ namespace: 'custom', key: 'material' }],
      variantMetafields: [{ namespace: 'custom', key: 'weight' }],
      category: true,
      collections: true,
    },
  }),
  CanonicalProductVariants: canonicalVariantsDocument({
    productMetafields: [],
    variantMetafields: [{ namespace: 'custom', key: 'weight' }],
    category: false,
    collections: false,
  }),
};

// Every Admin GraphQL document the connector sends, found in its source, is valid against
// Shopify's real 2026-07 schema (test/fixtures/shopify, see SOURCE.md). A document built with
// interpolation must be one of `BUILT_DOCUMENTS`, whose finished text is checked here too.
describe("the connector's GraphQL documents", () => {
  const schema = buildClientSchema(
    (JSON.parse(gunzipSync(readFileSync(SCHEMA)).toString('utf8')) as { data: IntrospectionQuery }).data,
  );
  const documents = documentsInSource();

  it('finds the documents of every stage that talks to Shopify', () => {
    const names = new Set(documents.map((d) => d.name));
    for (const name of [
      'CanonicalProduct',
      'ProductMedia',
      'ConnectorWebhookSubscriptionCreate',
      'ShopCurrency',
    ])
      expect(names).toContain(name);
    expect(documents.length).toBeGreaterThanOrEqual(15);
  });

  it('validates each literal document, and each write-back document as it is sent', () => {
    const problems: string[] = [];
    for (const doc of documents) {
      const text = doc.text.includes('${') ? BUILT_DOCUMENTS[doc.name] : doc.text;
      if (text === undefined) {
        problems.push(`${doc.file}: ${doc.name} is built by interpolation and is not a known built document`);
        continue;
      }
      for (const error of validate(schema, parse(text)))
        problems.push(`${doc.file}: ${doc.name}: ${error.message}`);
    }
    expect(problems).toEqual([]);
  });
});
