import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ShopMappings } from '../src/index.js';
import { MetafieldDefinitions } from '../src/write-back/definitions/metafield-definitions.service.js';
import { eventually } from './support/connector-harness.js';
import { EnrichmentFixture } from './support/enrichment-fixture.js';

interface Definition {
  namespace: string;
  key: string;
  name: string;
  type: { name: string };
  access: { admin: string; storefront: string };
}

// Metafield definitions (issue 30): every metafield target of the mapping gets one at boot, so the
// merchant sees and edits the values in the admin; a definition of another type stops that target
// only, with a message, and is never changed.
describe('metafield definitions of the write-back targets', () => {
  let fx: EnrichmentFixture;

  beforeAll(async () => {
    fx = await EnrichmentFixture.start();
  });
  afterAll(async () => {
    await fx?.close();
  });

  const graphql = async (query: string, variables: Record<string, unknown> = {}) => {
    const response = await fetch(`${fx.sandboxes.shopify.adminUrl}/graphql.json`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Shopify-Access-Token': fx.shop.accessToken },
      body: JSON.stringify({ query, variables }),
    });
    return (await response.json()) as { data: Record<string, unknown> };
  };
  const definitions = async (ownerType: 'PRODUCT' | 'PRODUCTVARIANT') => {
    const answer = await graphql(
      `query($o: MetafieldOwnerType!) { metafieldDefinitions(first: 50, ownerType: $o) {
         nodes { namespace key name type { name } access { admin storefront } } } }`,
      { o: ownerType },
    );
    return (answer.data.metafieldDefinitions as { nodes: Definition[] }).nodes;
  };

  it('creates a definition for each metafield target: its type, merchant read and write, no storefront', async () => {
    const products = await eventually(async () => {
      const found = await definitions('PRODUCT');
      return found.length === 4 && found;
    });
    expect(products.map((d) => [d.key, d.type.name, d.name]).sort()).toEqual([
      ['ai_description', 'rich_text_field', 'aiDescription'],
      ['bullet_points', 'list.single_line_text_field', 'aiBulletPoints'],
      ['care_instructions', 'multi_line_text_field', 'careInstructions'],
      ['material', 'single_line_text_field', 'material'],
    ]);
    for (const d of products) {
      expect(d.namespace).toMatch(/^app--\d+--catalog$/);
      expect(d.access).toEqual({ admin: 'MERCHANT_READ_WRITE', storefront: 'NONE' });
    }
    // The variant definition is made after the product ones: waited for in its turn.
    const variants = await eventually(async () => {
      const found = await definitions('PRODUCTVARIANT');
      return found.length > 0 && found;
    });
    expect(variants.map((d) => [d.key, d.type.name])).toEqual([['variant_title', 'single_line_text_field']]);

    // The values pushed are the merchant's to see: the admin lists them.
    const product = await fx.product('Visible shirt');
    await fx.enrich([product.parentSku, ...product.variantSkus]);
    await fx.review(product.parentSku, { approve: ['material'] });
    await fx.poll();
    const listed = await fx.sandboxes.merchant(
      fx.shop,
      'GET',
      `products/${product.productId}/metafields.json`,
    );
    const keys = (listed.body.metafields as Array<{ key: string }>).map((m) => m.key);
    expect(keys).toContain('material');
  });

  it('stops only the target whose definition has another type, saying why; the others are pushed', async () => {
    // The merchant's store already defines care_instructions as a single line of text.
    const { namespace } = (await definitions('PRODUCT')).find(
      (d) => d.key === 'care_instructions',
    ) as Definition;
    const deleted = await graphql(
      `mutation($i: MetafieldDefinitionIdentifierInput!) {
         metafieldDefinitionDelete(identifier: $i, deleteAllAssociatedMetafields: true) { userErrors { message } } }`,
      { i: { ownerType: 'PRODUCT', namespace, key: 'care_instructions' } },
    );
    expect(deleted.data.metafieldDefinitionDelete).toEqual({ userErrors: [] });
    const created = await graphql(
      `mutation($d: MetafieldDefinitionInput!) { metafieldDefinitionCreate(definition: $d) {
         createdDefinition { id } userErrors { message } } }`,
      {
        d: {
          name: 'Care',
          namespace: '$app:catalog',
          key: 'care_instructions',
          type: 'single_line_text_field',
          ownerType: 'PRODUCT',
        },
      },
    );
    expect(created.data.metafieldDefinitionCreate).toMatchObject({ userErrors: [] });

    // The next check of the mapping (every refresh; here asked for at once).
    const app = fx.harness.connector.app;
    const mapping = app.get(ShopMappings).mapping(fx.shop.domain);
    if (!mapping) throw new Error('the mapping is not ready');
    const outcomes = await app.get(MetafieldDefinitions).ensure(fx.shop.domain, mapping);
    expect(outcomes.filter((o) => o.outcome !== 'exists')).toEqual([
      {
        path: 'writeBack.product.careInstructions',
        outcome: 'stopped',
        message: expect.stringContaining(
          'has type single_line_text_field, the mapping says multi_line_text_field: nothing is pushed to this target',
        ),
      },
    ]);
    expect([...app.get(MetafieldDefinitions).stopped(fx.shop.domain).keys()]).toEqual([
      'writeBack.product.careInstructions',
    ]);

    const product = await fx.product('Stopped shirt');
    await fx.enrich([product.parentSku, ...product.variantSkus]);
    await fx.review(product.parentSku, { approve: ['material', 'careInstructions'] });
    await fx.poll();
    const state = await fx.shopify(product.gid);
    const keys = state.metafields.filter((m) => m.ownerId === product.gid).map((m) => m.key);
    expect(keys).toContain('material');
    expect(keys).not.toContain('care_instructions');
    // The definition is left as the merchant made it.
    const care = (await definitions('PRODUCT')).find((d) => d.key === 'care_instructions');
    expect(care?.type.name).toBe('single_line_text_field');
  });
});
