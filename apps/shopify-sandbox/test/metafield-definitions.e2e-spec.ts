import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ShopifySandboxHarness, startShopifySandbox } from '#testing/shopify-sandbox';

const CREATE = `mutation($d: MetafieldDefinitionInput!) {
  metafieldDefinitionCreate(definition: $d) {
    createdDefinition { id name namespace key ownerType type { name category valueType } validations { name value } access { admin storefront } metafieldsCount }
    userErrors { field message code }
  }
}`;
const SET = `mutation($m: [MetafieldsSetInput!]!) {
  metafieldsSet(metafields: $m) { metafields { namespace key type value } userErrors { field message code elementIndex } }
}`;

interface CreateReply {
  metafieldDefinitionCreate: {
    createdDefinition: {
      id: string;
      namespace: string;
      access: { admin: string; storefront: string };
    } | null;
    userErrors: Array<{ field: string[]; message: string; code: string }>;
  };
}
interface SetReply {
  metafieldsSet: {
    metafields: Array<{ type: string; value: string }> | null;
    userErrors: Array<{ field: string[]; message: string; code: string; elementIndex: number | null }>;
  };
}

describe('metafield definitions', () => {
  let h: ShopifySandboxHarness;
  let productId: number;
  let owner: string;

  beforeAll(async () => {
    // Enough points for the 257 definitions of the limit test.
    h = await startShopifySandbox({ cost: { bucketSize: 100_000, restoreRate: 100_000 } });
    const created = await h.merchant('POST', 'products.json', { product: { title: 'Defined' } });
    productId = (created.body.product as { id: number }).id;
    owner = `gid://shopify/Product/${productId}`;
  });
  afterAll(() => h.close());

  const create = (d: Record<string, unknown>) =>
    h.graphql<CreateReply>(CREATE, { d: { ownerType: 'PRODUCT', ...d } });
  const set = (m: Record<string, unknown>) => h.graphql<SetReply>(SET, { m: [{ ownerId: owner, ...m }] });

  it('creates a definition, refuses a second of the same key, unknown options and admin access on merchant namespaces', async () => {
    const made = await create({
      name: 'Material',
      namespace: 'custom',
      key: 'material',
      type: 'single_line_text_field',
      validations: [{ name: 'choices', value: '["Linen","Wool"]' }],
    });
    expect(made.data?.metafieldDefinitionCreate).toMatchObject({
      createdDefinition: {
        namespace: 'custom',
        type: { name: 'single_line_text_field', category: 'TEXT', valueType: 'STRING' },
        metafieldsCount: 0,
        access: { admin: 'PUBLIC_READ_WRITE', storefront: 'NONE' },
        validations: [{ name: 'choices', value: '["Linen","Wool"]' }],
      },
      userErrors: [],
    });
    const again = await create({
      name: 'Material',
      namespace: 'custom',
      key: 'material',
      type: 'single_line_text_field',
    });
    expect(again.data?.metafieldDefinitionCreate.userErrors).toEqual([
      {
        field: ['definition', 'key'],
        message: "Key is in use for Product metafields on the 'custom' namespace.",
        code: 'TAKEN',
      },
    ]);
    const badOption = await create({
      name: 'X',
      namespace: 'custom',
      key: 'count',
      type: 'number_integer',
      validations: [{ name: 'regex', value: 'a' }],
    });
    expect(badOption.data?.metafieldDefinitionCreate.userErrors[0].code).toBe('INVALID_OPTION');
    const access = await create({
      name: 'X',
      namespace: 'custom',
      key: 'other',
      type: 'boolean',
      access: { admin: 'MERCHANT_READ' },
    });
    expect(access.data?.metafieldDefinitionCreate.userErrors[0].code).toBe('ADMIN_ACCESS_INPUT_NOT_ALLOWED');
    const badType = await create({ name: 'X', namespace: 'custom', key: 'other', type: 'colour' });
    expect(badType.data?.metafieldDefinitionCreate.userErrors[0].code).toBe('INCLUSION');

    const listed = await h.graphql<{
      metafieldDefinitions: { nodes: Array<{ key: string }> };
      metafieldDefinition: { name: string };
    }>(
      `{ metafieldDefinitions(first: 10, ownerType: PRODUCT, namespace: "custom") { nodes { key } }
         metafieldDefinition(identifier: { ownerType: PRODUCT, namespace: "custom", key: "material" }) { name } }`,
    );
    expect(listed.data).toEqual({
      metafieldDefinitions: { nodes: [{ key: 'material' }] },
      metafieldDefinition: { name: 'Material' },
    });
  });

  it('checks metafieldsSet against the definition: its type and its validations', async () => {
    const wrongType = await set({
      namespace: 'custom',
      key: 'material',
      type: 'multi_line_text_field',
      value: 'Linen',
    });
    expect(wrongType.data?.metafieldsSet.userErrors[0]).toMatchObject({
      code: 'INVALID_TYPE',
      field: ['metafields', '0', 'type'],
    });
    const notAChoice = await set({
      namespace: 'custom',
      key: 'material',
      type: 'single_line_text_field',
      value: 'Silk',
    });
    expect(notAChoice.data?.metafieldsSet.userErrors[0]).toMatchObject({
      code: 'INVALID_VALUE',
      field: ['metafields', '0', 'value'],
    });
    const typeFromDefinition = await set({ namespace: 'custom', key: 'material', value: 'Wool' });
    expect(typeFromDefinition.data?.metafieldsSet).toEqual({
      metafields: [{ namespace: 'custom', key: 'material', type: 'single_line_text_field', value: 'Wool' }],
      userErrors: [],
    });
    await create({
      name: 'Sizes',
      namespace: 'custom',
      key: 'sizes',
      type: 'list.number_integer',
      validations: [
        { name: 'min', value: '1' },
        { name: 'list.max', value: '3' },
      ],
    });
    const item = await set({
      namespace: 'custom',
      key: 'sizes',
      type: 'list.number_integer',
      value: '[2, 0, 4]',
    });
    expect(item.data?.metafieldsSet.userErrors[0]).toMatchObject({ code: 'INVALID_VALUE', elementIndex: 1 });
    const tooMany = await set({
      namespace: 'custom',
      key: 'sizes',
      type: 'list.number_integer',
      value: '[1,2,3,4]',
    });
    expect(tooMany.data?.metafieldsSet.userErrors[0].code).toBe('INVALID_VALUE');
  });

  it('hides an app-owned metafield from the merchant until a definition grants read access', async () => {
    expect(
      (await set({ namespace: '$app', key: 'score', type: 'number_integer', value: '7' })).data?.metafieldsSet
        .userErrors,
    ).toEqual([]);
    await set({ namespace: 'custom', key: 'note', type: 'single_line_text_field', value: 'hi' });
    const keys = async () =>
      (
        (await h.merchant('GET', `products/${productId}/metafields.json`)).body.metafields as Array<{
          key: string;
        }>
      ).map((m) => m.key);
    expect(await keys()).toEqual(['material', 'note']);
    const made = await create({ name: 'Score', namespace: '$app', key: 'score', type: 'number_integer' });
    expect(made.data?.metafieldDefinitionCreate.createdDefinition).toMatchObject({
      namespace: 'app--5717453',
      access: { admin: 'MERCHANT_READ' },
    });
    expect(await keys()).toEqual(['material', 'score', 'note']);
    const owned = await h.graphql<{
      metafieldDefinition: { metafieldsCount: number; metafields: { nodes: unknown[] } };
    }>(
      `{ metafieldDefinition(identifier: { ownerType: PRODUCT, namespace: "$app", key: "score" }) {
          metafieldsCount metafields(first: 5) { nodes { value owner { ... on Product { title } } } } } }`,
    );
    expect(owned.data?.metafieldDefinition).toEqual({
      metafieldsCount: 1,
      metafields: { nodes: [{ value: '7', owner: { title: 'Defined' } }] },
    });
    const refused = await h.graphql<{ metafieldDefinitionDelete: { userErrors: Array<{ code: string }> } }>(
      `mutation { metafieldDefinitionDelete(identifier: { ownerType: PRODUCT, namespace: "$app", key: "score" }) { deletedDefinitionId userErrors { code message } } }`,
    );
    expect(refused.data?.metafieldDefinitionDelete.userErrors[0].code).toBe(
      'RESERVED_NAMESPACE_ORPHANED_METAFIELDS',
    );
    const deleted = await h.graphql<{
      metafieldDefinitionDelete: { deletedDefinitionId: string; userErrors: unknown[] };
    }>(
      `mutation { metafieldDefinitionDelete(identifier: { ownerType: PRODUCT, namespace: "$app", key: "score" }, deleteAllAssociatedMetafields: true) { deletedDefinitionId userErrors { code } } }`,
    );
    expect(deleted.data?.metafieldDefinitionDelete.userErrors).toEqual([]);
    expect(await keys()).toEqual(['material', 'note']);
  });

  it('updates name, validations and access; refuses an unknown definition', async () => {
    const updated = await h.graphql<{
      metafieldDefinitionUpdate: {
        updatedDefinition: { name: string; validations: unknown[] };
        userErrors: unknown[];
      };
    }>(
      `mutation { metafieldDefinitionUpdate(definition: { ownerType: PRODUCT, namespace: "custom", key: "material", name: "Fabric", validations: [] }) {
        updatedDefinition { name validations { name } } userErrors { code message } } }`,
    );
    expect(updated.data?.metafieldDefinitionUpdate).toEqual({
      updatedDefinition: { name: 'Fabric', validations: [] },
      userErrors: [],
    });
    const missing = await h.graphql<{ metafieldDefinitionUpdate: { userErrors: Array<{ code: string }> } }>(
      `mutation { metafieldDefinitionUpdate(definition: { ownerType: PRODUCT, namespace: "custom", key: "nope", name: "N" }) { userErrors { code } } }`,
    );
    expect(missing.data?.metafieldDefinitionUpdate.userErrors[0].code).toBe('NOT_FOUND');
  });

  it('applies COLLECTION definitions to collection metafields', async () => {
    const collection = (
      await h.merchant('POST', 'custom_collections.json', { custom_collection: { title: 'Sale' } })
    ).body.custom_collection as { id: number };
    const gid = `gid://shopify/Collection/${collection.id}`;
    await create({
      ownerType: 'COLLECTION',
      name: 'Rank',
      namespace: 'custom',
      key: 'rank',
      type: 'number_integer',
      validations: [{ name: 'max', value: '5' }],
    });
    const tooHigh = await h.graphql<SetReply>(SET, {
      m: [{ ownerId: gid, namespace: 'custom', key: 'rank', value: '9' }],
    });
    expect(tooHigh.data?.metafieldsSet.userErrors[0]).toMatchObject({
      code: 'INVALID_VALUE',
      message: 'Value has a maximum of 5.',
    });
    const fine = await h.graphql<SetReply>(SET, {
      m: [{ ownerId: gid, namespace: 'custom', key: 'rank', value: '3' }],
    });
    expect(fine.data?.metafieldsSet.userErrors).toEqual([]);
    const read = await h.graphql<{ collection: { metafield: { value: string; type: string } } }>(
      `query($id: ID!) { collection(id: $id) { metafield(namespace: "custom", key: "rank") { value type } } }`,
      { id: gid },
    );
    expect(read.data?.collection.metafield).toEqual({ value: '3', type: 'number_integer' });
  });

  it('allows 256 app definitions per owner type, then RESOURCE_TYPE_LIMIT_EXCEEDED_BY_APP', async () => {
    for (let i = 0; i < 256; i++) {
      const made = await create({
        ownerType: 'PRODUCTVARIANT',
        name: `K${i}`,
        namespace: '$app',
        key: `k${i}`,
        type: 'boolean',
      });
      expect(made.data?.metafieldDefinitionCreate.userErrors).toEqual([]);
    }
    const over = await create({
      ownerType: 'PRODUCTVARIANT',
      name: 'Over',
      namespace: '$app',
      key: 'over',
      type: 'boolean',
    });
    expect(over.data?.metafieldDefinitionCreate.userErrors[0].code).toBe(
      'RESOURCE_TYPE_LIMIT_EXCEEDED_BY_APP',
    );
    const merchant = await create({
      ownerType: 'PRODUCTVARIANT',
      name: 'M',
      namespace: 'custom',
      key: 'fine',
      type: 'boolean',
    });
    expect(merchant.data?.metafieldDefinitionCreate.userErrors).toEqual([]);
  });
});
