import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import {
  buildClientSchema,
  type GraphQLSchema,
  getVariableValues,
  type IntrospectionQuery,
  type OperationDefinitionNode,
  parse,
  validate,
} from 'graphql';
import { describe, expect, it } from 'vitest';
import { writeBackEntry } from '../../../../test/support/write-back-mapping.js';
import type { PlannedWrite, WriteOp } from '../../../write-back/decide/write-back-plan.js';
import { buildMutations } from '../../../write-back/shopify/build-mutations.js';
import { writeBackReadVariables } from '../../../write-back/shopify/read-write-back-state.js';
import {
  readWriteBackProduct,
  readWriteBackVariants,
  runWriteBackMutation,
  type SendWriteBackCall,
  writeBackOperationName,
} from '../write-back-calls.js';
import { CANONICAL_PRODUCT_QUERY } from './canonical-product.query.js';
import {
  WRITE_BACK_DOCUMENTS,
  WRITE_BACK_PRODUCT_QUERY,
  WRITE_BACK_VARIANTS_QUERY,
} from './write-back.documents.js';

const fixtures = new URL('../../../../test/fixtures/shopify/', import.meta.url);

function adminSchema(): GraphQLSchema {
  const raw = gunzipSync(readFileSync(new URL('admin-graphql-2026-07.introspection.json.gz', fixtures)));
  return buildClientSchema((JSON.parse(raw.toString('utf8')) as { data: IntrospectionQuery }).data);
}

const schema = adminSchema();

/** Every Admin GraphQL document the connector sends. */
const CONNECTOR_DOCUMENTS: Record<string, string> = {
  CanonicalProduct: CANONICAL_PRODUCT_QUERY,
  ...WRITE_BACK_DOCUMENTS,
};

/** The variables a document gets, checked against the schema's input types (coercion errors). */
function variableErrors(document: string, variables: Record<string, unknown>): string[] {
  const operation = parse(document).definitions[0] as OperationDefinitionNode;
  const result = getVariableValues(schema, operation.variableDefinitions ?? [], variables);
  return 'errors' in result && result.errors ? result.errors.map((e) => e.message) : [];
}

/** The document, variables and cost a write-back call sends (the call answers an empty body). */
async function sent(
  call: (send: SendWriteBackCall<object>) => Promise<unknown>,
): Promise<{ document: string; variables: Record<string, unknown>; cost: number }> {
  let seen: { document: string; variables: Record<string, unknown>; cost: number } | undefined;
  await call(async (document, variables, cost) => {
    seen = { document, variables, cost };
    return {};
  });
  if (!seen) throw new Error('nothing sent');
  return seen;
}

const PRODUCT = 'gid://shopify/Product/7390000000006';
const VARIANT = 'gid://shopify/ProductVariant/7390000000007';

function write(op: WriteOp): PlannedWrite {
  return {
    ref: {
      productId: PRODUCT,
      ownerId: PRODUCT,
      attribute: 'x',
      target: { kind: 'tags' },
      key: 'tags',
      path: 'writeBack.product.x',
    },
    purpose: 'push',
    op,
    next: { ownerId: PRODUCT, attribute: 'x', target: 'tags', status: 'pushed', valueHash: null },
  };
}

describe('the connector’s Admin GraphQL documents', () => {
  it.each(Object.entries(CONNECTOR_DOCUMENTS))(
    '%s is valid against the real Admin 2026-07 schema',
    (name, doc) => {
      const ast = parse(doc);
      expect(validate(schema, ast).map((e) => e.message)).toEqual([]);
      const operation = ast.definitions[0] as OperationDefinitionNode;
      expect(ast.definitions).toHaveLength(1);
      expect(operation.name?.value).toBe(name);
    },
  );

  it('every write the planner makes becomes variables the schema accepts, batched by Shopify’s limits', async () => {
    const writes: PlannedWrite[] = [
      write({ kind: 'field', field: 'title', value: 'New title' }),
      write({ kind: 'field', field: 'descriptionHtml', value: '<p>x</p>' }),
      write({ kind: 'field', field: 'seo.title', value: 'SEO' }),
      write({ kind: 'field', field: 'seo.description', value: null }),
      write({ kind: 'tags', add: ['eco', 'new'], remove: ['old'] }),
      write({ kind: 'tags', add: ['Eco'], remove: [] }),
      ...Array.from({ length: 26 }, (_, i) =>
        write({
          kind: 'metafield-set',
          ownerId: i % 2 ? PRODUCT : VARIANT,
          namespace: '$app:catalog',
          key: `k${i}`,
          type: 'single_line_text_field',
          value: `v${i}`,
          compareDigest: i === 0 ? null : `digest-${i}`,
        }),
      ),
      write({ kind: 'metafield-delete', ownerId: PRODUCT, namespace: '$app:catalog', key: 'gone' }),
    ];
    const mutations = buildMutations(PRODUCT, writes);
    expect(mutations.map((m) => [m.root, m.writes.length])).toEqual([
      ['productUpdate', 4],
      ['tagsRemove', 1],
      ['tagsAdd', 2],
      ['metafieldsSet', 25],
      ['metafieldsSet', 1],
      ['metafieldsDelete', 1],
    ]);
    expect(mutations[0]?.variables).toEqual({
      product: {
        id: PRODUCT,
        title: 'New title',
        descriptionHtml: '<p>x</p>',
        seo: { title: 'SEO', description: null },
      },
    });
    expect(mutations[2]?.variables).toEqual({ id: PRODUCT, tags: ['eco', 'new'] });
    const firstSet = mutations[3]?.variables.metafields as Array<{ compareDigest: unknown }> | undefined;
    expect(firstSet?.[0]?.compareDigest).toBeNull();
    for (const mutation of mutations) {
      const call = await sent((send) => runWriteBackMutation(send, mutation.root, mutation.variables));
      expect(call.variables).toBe(mutation.variables);
      expect(call.cost).toBe(10);
      expect(validate(schema, parse(call.document))).toEqual([]);
      expect(variableErrors(call.document, call.variables), mutation.root).toEqual([]);
      expect(writeBackOperationName(mutation.root)).toBe(
        (parse(call.document).definitions[0] as OperationDefinitionNode).name?.value,
      );
    }
  });

  it('the reads take the variables built from the mapping', async () => {
    const entries = [
      writeBackEntry('aiDescription', 'RICH_TEXT', {
        kind: 'metafield',
        namespace: '$app:catalog',
        key: 'ai_description',
        type: 'rich_text_field',
      }),
      writeBackEntry(
        'variantTitle',
        'TEXT',
        {
          kind: 'metafield',
          namespace: '$app:catalog',
          key: 'variant_title',
          type: 'single_line_text_field',
        },
        'variant',
      ),
    ];
    const variables = writeBackReadVariables(PRODUCT, entries);
    expect(variables.product).toEqual({
      id: PRODUCT,
      keys: ['$app:catalog.ai_description'],
      keyCount: 1,
      withMetafields: true,
    });
    const product = await sent((send) => readWriteBackProduct(send, variables.product));
    expect(product).toEqual({ document: WRITE_BACK_PRODUCT_QUERY, variables: variables.product, cost: 6 });
    expect(variableErrors(product.document, product.variables)).toEqual([]);
    const variantRead = variables.variants;
    if (!variantRead) throw new Error('a variant entry asks for the variant read');
    const page = await sent((send) => readWriteBackVariants(send, variantRead));
    expect(page).toEqual({ document: WRITE_BACK_VARIANTS_QUERY, variables: variantRead, cost: 403 });
    expect(variableErrors(page.document, page.variables)).toEqual([]);
    const none = writeBackReadVariables(PRODUCT, [
      writeBackEntry('seoTitle', 'TEXT', { kind: 'field', field: 'seo.title' }),
    ]);
    expect(none.product.withMetafields).toBe(false);
    expect(none.variants).toBeNull();
    const alone = await sent((send) => readWriteBackProduct(send, none.product));
    expect(variableErrors(alone.document, alone.variables)).toEqual([]);
  });

  it('each named write-back field is an input field of productUpdate in the schema', () => {
    const input = schema.getType('ProductUpdateInput') as unknown as { getFields(): Record<string, unknown> };
    const seo = schema.getType('SEOInput') as unknown as { getFields(): Record<string, unknown> };
    for (const field of ['title', 'descriptionHtml', 'seo']) expect(input.getFields()).toHaveProperty(field);
    for (const field of ['title', 'description']) expect(seo.getFields()).toHaveProperty(field);
  });
});
