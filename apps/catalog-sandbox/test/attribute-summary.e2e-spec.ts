import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CatalogSandboxHarness,
  productBody,
  startCatalogSandbox,
  type TestAccount,
} from '#testing/catalog-sandbox';
import type { AttributeDefinitionInput } from '../src/attributes/attribute-definition.js';

// One attribute per rule of the spec's "Attribute applicability" section.
const ATTRIBUTES: AttributeDefinitionInput[] = [
  { key: 'globalCustom', type: 'TEXT', class: 'CUSTOM', categories: null, ai: { enabled: true } },
  { key: 'globalLib', type: 'TEXT', class: 'LIB', categories: null, ai: { enabled: true } },
  { key: 'aiOff', type: 'TEXT', class: 'CUSTOM', categories: null, ai: { enabled: false } },
  {
    key: 'disabled',
    type: 'TEXT',
    class: 'CUSTOM',
    option: { disabled: true },
    categories: null,
    ai: { enabled: true },
  },
  { key: 'onBranch', type: 'TEXT', class: 'CUSTOM', categories: ['branch'], ai: { enabled: true } },
  { key: 'onLeaf', type: 'TEXT', class: 'CUSTOM', categories: ['leaf'], ai: { enabled: true } },
  { key: 'elsewhere', type: 'TEXT', class: 'CUSTOM', categories: ['other-leaf'], ai: { enabled: true } },
  {
    key: 'perVariant',
    type: 'TEXT',
    class: 'LIB',
    option: { variantable: true },
    categories: null,
    ai: { enabled: true },
  },
];
const TAXONOMY = [
  {
    id: 'root',
    name: 'Root',
    children: [
      { id: 'branch', name: 'Branch', children: [{ id: 'leaf', name: 'Leaf' }] },
      { id: 'other-leaf', name: 'Other leaf' },
    ],
  },
];

describe('catalog sandbox: attributeSummary follows applicability and enrichability', () => {
  let sandbox: CatalogSandboxHarness;
  let account: TestAccount;
  beforeAll(async () => {
    sandbox = await startCatalogSandbox();
    account = await sandbox.createAccount({ taxonomy: TAXONOMY, attributes: ATTRIBUTES });
  });
  afterAll(() => sandbox.close());

  it('counts GLOBAL, INHERITED and DIRECT attributes of class CUSTOM or LIB with AI on, not disabled', async () => {
    const res = await account.api.post(
      '/v1/products',
      productBody('in-leaf', [
        { key: 'productCategory', value: 'leaf' },
        { key: 'globalCustom', value: 'x' },
        { key: 'perVariant', value: 'y' },
        { key: 'aiOff', value: 'ignored' },
        { key: 'description', value: 'a DEFAULT attribute: never counted' },
      ]),
    );
    expect(res.status).toBe(200);
    // globalCustom, globalLib, onBranch (inherited), onLeaf (direct), perVariant
    expect(res.body.data.attributeSummary).toEqual({
      enrichableTotal: 5,
      enrichableCompleted: 2,
      enrichableCompletionRate: 40,
    });
  });

  it('counts only global ones for a product without a category', async () => {
    const res = await account.api.post('/v1/products', productBody('no-category'));
    expect(res.body.data.attributeSummary).toEqual({
      enrichableTotal: 3,
      enrichableCompleted: 0,
      enrichableCompletionRate: 0,
    });
  });

  it('counts only variant-specific ones for a variant, using its parent category', async () => {
    await account.api.post(
      '/v1/products',
      productBody('parent', [{ key: 'productCategory', value: 'leaf' }]),
    );
    const res = await account.api.post('/v1/variants', {
      parentSupplierSku: 'parent',
      supplierSku: 'parent-v',
      attributes: [{ key: 'perVariant', value: 'v' }],
    });
    expect(res.body.data.attributeSummary).toEqual({
      enrichableTotal: 1,
      enrichableCompleted: 1,
      enrichableCompletionRate: 100,
    });
  });

  it('changes with edits', async () => {
    const created = await account.api.post(
      '/v1/products',
      productBody('edited', [{ key: 'productCategory', value: 'leaf' }]),
    );
    const res = await account.api.patch(`/v1/products/${created.body.data.skuId}`, {
      product: { attributes: [{ key: 'onLeaf', value: 'v' }] },
    });
    expect(res.body.data.attributeSummary).toMatchObject({ enrichableTotal: 5, enrichableCompleted: 1 });
  });
});
