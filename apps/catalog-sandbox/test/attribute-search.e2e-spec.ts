import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATORS } from '#lib/catalog-contract';
import { type CatalogSandboxHarness, startCatalogSandbox, type TestAccount } from '#testing/catalog-sandbox';

const SEARCH = '/v1/attributes/search';
const DEFAULT_KEYS = [
  'name',
  'brand',
  'description',
  'price',
  'supplierSku',
  'skuId',
  'productCategory',
  'externalCategory',
  'media',
  'productModel',
];
const VARIANT_SPECIFIC = [
  'price',
  'media',
  'productModel',
  'size',
  'color',
  'gtin',
  'compareAtPrice',
  'weightGrams',
  'variantTitle',
];
/** Seed attributes linked to categories (all others are global). */
const LINKED = ['material', 'careInstructions', 'fit', 'neckline', 'bladeLengthCm', 'aiBulletPoints'];

interface Definition {
  key: string;
  displayName: string;
  scope?: string;
  option: { variantable?: true };
}

describe('catalog sandbox: attribute search', () => {
  let sandbox: CatalogSandboxHarness;
  let account: TestAccount;
  let allKeys: string[];

  const search = (body: unknown) => account.api.post(SEARCH, body);
  async function keys(filter: unknown, sort?: unknown): Promise<string[]> {
    const res = await search({ filter, sort });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data.attributes.map((a: Definition) => a.key);
  }
  async function scopes(filter: unknown): Promise<Record<string, string | undefined>> {
    const res = await search({ filter });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return Object.fromEntries(res.body.data.attributes.map((a: Definition) => [a.key, a.scope]));
  }
  const globalKeys = () => allKeys.filter((k) => !LINKED.includes(k));

  beforeAll(async () => {
    sandbox = await startCatalogSandbox({ env: { CATALOG_SANDBOX_RATE_LIMIT: 'false' } });
    account = await sandbox.createAccount();
    const res = await search({ filter: {} });
    allKeys = res.body.data.attributes.map((a: Definition) => a.key);
  });
  afterAll(() => sandbox.close());

  it('returns every attribute of the account for an empty filter, defaults and disabled ones included', async () => {
    const res = await search({ filter: {} });
    expect(res.status).toBe(200);
    expect(res.body.errorCode).toBe(0);
    const { attributes, pagination } = res.body.data;
    expect(attributes.length).toBe(32);
    expect(pagination).toEqual({ limit: 500, offset: 0, total: 32, hasMore: false });
    expect(allKeys.slice(0, 10)).toEqual(DEFAULT_KEYS);
    expect(allKeys).toEqual(expect.arrayContaining(['legacyCode', ...LINKED]));
    expect((await search({})).body.data.attributes).toEqual(attributes);
  });

  it('maps each definition to the contract shape', async () => {
    const res = await search({ filter: { key: { $in: ['color', 'legacyCode', 'material', 'name'] } } });
    const byKey = Object.fromEntries(res.body.data.attributes.map((a: Definition) => [a.key, a]));
    expect(byKey.color).toEqual({
      key: 'color',
      displayName: 'Colour',
      type: 'DROPDOWN',
      class: 'CUSTOM',
      option: { disabled: false, variantable: true, values: expect.arrayContaining(['Black', 'Red']) },
      categories: null,
      ai: { enabled: true, instructions: 'The main colour as a shopper would name it.' },
      createdAt: expect.any(Number),
    });
    expect(byKey.legacyCode).toMatchObject({ option: { disabled: true }, ai: { enabled: false } });
    expect(byKey.legacyCode.option).not.toHaveProperty('variantable');
    expect(byKey.legacyCode.ai).not.toHaveProperty('instructions');
    expect(byKey.material).toMatchObject({ class: 'LIB', categories: ['apparel', 'footwear'] });
    expect(byKey.name).toMatchObject({ class: 'DEFAULT', type: 'TEXT', categories: null });
    expect(byKey.name).not.toHaveProperty('scope');
  });

  it('finds a single attribute by key', async () => {
    expect(await keys({ key: { $eq: 'fit' } })).toEqual(['fit']);
    expect(await keys({ key: { $eq: 'noSuchKey' } })).toEqual([]);
  });

  it('filters on option.variantable, nested or dotted', async () => {
    const flagged = allKeys.filter((k) => VARIANT_SPECIFIC.includes(k));
    expect(flagged).toHaveLength(VARIANT_SPECIFIC.length);
    expect(await keys({ option: { variantable: true } })).toEqual(flagged);
    expect(await keys({ 'option.variantable': true })).toEqual(flagged);
    const unflagged = allKeys.filter((k) => !VARIANT_SPECIFIC.includes(k));
    expect(await keys({ option: { variantable: { $exists: false } } })).toEqual(unflagged);
    expect(await keys({ 'option.variantable': { $exists: false } })).toEqual(unflagged);
  });

  it('selects the attributes applicable to a category, with the scope of each', async () => {
    const tshirts = await scopes({ linkedCategories: ['apparel-tops-tshirts'] });
    expect(Object.keys(tshirts).sort()).toEqual(
      [...globalKeys(), 'material', 'careInstructions', 'fit', 'neckline', 'aiBulletPoints'].sort(),
    );
    expect(tshirts).toMatchObject({
      name: 'GLOBAL',
      color: 'GLOBAL',
      neckline: 'DIRECT',
      fit: 'INHERITED',
      material: 'INHERITED',
      careInstructions: 'INHERITED',
      aiBulletPoints: 'INHERITED',
    });
    expect(await scopes({ linkedCategories: ['apparel-tops-tshirts'], categoryScopes: ['DIRECT'] })).toEqual({
      neckline: 'DIRECT',
    });
    expect(
      Object.keys(
        await scopes({ linkedCategories: ['apparel-tops-tshirts'], categoryScopes: ['INHERITED'] }),
      ).sort(),
    ).toEqual(['aiBulletPoints', 'careInstructions', 'fit', 'material']);
    expect(Object.keys(await scopes({ linkedCategories: ['apparel'], categoryScopes: ['GLOBAL'] }))).toEqual(
      globalKeys(),
    );
    expect(await scopes({ linkedCategories: ['apparel'], categoryScopes: ['DIRECT', 'INHERITED'] })).toEqual({
      material: 'DIRECT',
      careInstructions: 'DIRECT',
      aiBulletPoints: 'DIRECT',
    });
  });

  it('includes an attribute applying to any of several linked categories (strongest scope reported)', async () => {
    expect(
      await scopes({
        linkedCategories: ['home-kitchen-knives', 'apparel-tops-tshirts', 'apparel'],
        categoryScopes: ['DIRECT', 'INHERITED'],
      }),
    ).toEqual({
      material: 'DIRECT',
      careInstructions: 'DIRECT',
      fit: 'INHERITED',
      neckline: 'DIRECT',
      bladeLengthCm: 'DIRECT',
      aiBulletPoints: 'DIRECT',
    });
  });

  it('combines category, variant and key filters', async () => {
    const filter = {
      linkedCategories: ['footwear-boots'],
      'option.variantable': { $exists: false },
      key: { $regex: '^[a-m]' },
    };
    expect(await keys(filter)).toEqual([
      'brand',
      'description',
      'externalCategory',
      'material',
      'availableFrom',
      'manufacturerUrl',
      'legacyCode',
      'aiTitle',
      'aiDescription',
      'aiTags',
    ]);
  });

  it('pages with limit and offset and sorts by key, displayName or createdAt', async () => {
    const page = await search({ pagination: { limit: 5, offset: 30 } });
    expect(page.body.data.pagination).toEqual({ limit: 5, offset: 30, total: 32, hasMore: false });
    expect(page.body.data.attributes.map((a: Definition) => a.key)).toEqual(allKeys.slice(30));
    const first = await search({ pagination: { limit: 5 } });
    expect(first.body.data.pagination).toEqual({ limit: 5, offset: 0, total: 32, hasMore: true });
    const byCode = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    expect(await keys({}, { field: 'key', order: 'ASC' })).toEqual([...allKeys].sort(byCode));
    expect(await keys({}, { field: 'key', order: 'DESC' })).toEqual([...allKeys].sort(byCode).reverse());
    // Every attribute has the account's creation time: ties keep the definition order.
    expect(await keys({}, { field: 'createdAt', order: 'DESC' })).toEqual(allKeys);
    const names = await search({ sort: { field: 'displayName', order: 'ASC' } });
    const displayNames = names.body.data.attributes.map((a: Definition) => a.displayName);
    expect(displayNames).toEqual([...displayNames].sort(byCode));
  });

  it('refuses a page size above 500 with pagination_limit_exceeded', async () => {
    const res = await search({ pagination: { limit: 501 } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({
      code: 'pagination_limit_exceeded',
      details: { requested_limit: 501, max_limit: 500 },
    });
  });

  it('refuses off-shape filters with invalid_query_structure, unknown operators with unsupported_operator', async () => {
    const invalid = [
      { filter: { unknown: true } },
      { filter: { key: 'brand' } },
      { filter: { linkedCategories: 'apparel' } },
      { filter: { categoryScopes: ['LOCAL'] } },
      { filter: { option: { variantable: false } } },
      { filter: { option: { disabled: true } } },
      { sort: { field: 'type', order: 'ASC' } },
      { pagination: { offset: -1 } },
    ];
    for (const body of invalid) {
      const res = await search(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code, JSON.stringify(body)).toBe('invalid_query_structure');
      expect(res.body.error.details).toEqual({
        field: expect.any(String),
        expected: expect.any(String),
        received: expect.any(String),
      });
    }
    for (const filter of [{ key: { $foo: 'brand' } }, { 'option.variantable': { $nope: false } }]) {
      const res = await search({ filter });
      expect(res.status, JSON.stringify(filter)).toBe(400);
      expect(res.body.error).toMatchObject({
        code: 'unsupported_operator',
        supported_operators: [...OPERATORS],
      });
    }
  });
});
