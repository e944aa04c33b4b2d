import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATORS } from '#lib/catalog-contract';
import {
  type CatalogSandboxHarness,
  productBody,
  startCatalogSandbox,
  type TestAccount,
} from '#testing/catalog-sandbox';

const SEARCH = '/v1/products/search';

// Product search refusals and the $regex engine's bounds (the matching itself: product-search.e2e-spec.ts).
describe('catalog sandbox: product search refusals', () => {
  let sandbox: CatalogSandboxHarness;
  let account: TestAccount;
  const search = (body: unknown) => account.api.post(SEARCH, body);
  async function found(filter: unknown): Promise<string[]> {
    const res = await search({ filter, pagination: { limit: 500 } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data.products.map((p: { supplierSku: string }) => p.supplierSku);
  }

  beforeAll(async () => {
    sandbox = await startCatalogSandbox();
    account = await sandbox.createAccount();
    for (const [supplierSku, extra] of [
      ['tee-1', []],
      ['long-1', [{ key: 'description', value: `${'a'.repeat(50_000)}b` }]],
    ] as const) {
      const res = await account.api.post('/v1/products', productBody(supplierSku, [...extra]));
      expect(res.status).toBe(200);
    }
  });
  afterAll(() => sandbox.close());

  it('refuses a page size above 500 with pagination_limit_exceeded', async () => {
    const res = await search({ pagination: { limit: 501 } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      errorCode: 400,
      error: { code: 'pagination_limit_exceeded', details: { requested_limit: 501, max_limit: 500 } },
    });
    expect(res.body.error.message).toEqual(expect.any(String));
  });

  it('refuses a filter syntax error with invalid_query_structure and details', async () => {
    const res = await search({ filter: { supplierSku: 'abc' } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      errorCode: 400,
      error: {
        code: 'invalid_query_structure',
        details: { field: 'supplierSku', expected: expect.any(String), received: 'string' },
      },
    });
    const bad = [
      { filter: { attributes: [{ key: 'brand', value: { $eq: 'Acme' } }] } },
      { filter: { createdAt: { $gte: 'yesterday' } } },
      { filter: { keyword: ['a'] } },
      { filter: { unknownField: { $eq: 'x' } } },
      { pagination: { limit: -1 } },
      { pagination: { offset: 1.5 } },
      { pagination: { limit: '10' } },
      { sort: { field: 'price', order: 'ASC' } },
      { sort: { field: 'createdAt', order: 'asc' } },
    ];
    for (const body of bad) {
      const answer = await search(body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.error.code, JSON.stringify(body)).toBe('invalid_query_structure');
      expect(answer.body.error.details).toEqual({
        field: expect.any(String),
        expected: expect.any(String),
        received: expect.any(String),
      });
    }
  });

  it('refuses an unknown operator with unsupported_operator and the ten supported ones', async () => {
    for (const filter of [
      { supplierSku: { $foo: 'x' } },
      { supplierSku: { $like: 'tee%' } },
      { attributes: [{ key: { $eq: 'name' }, value: { $regex: 'tee', $options: 'i' } }] },
    ]) {
      const res = await search({ filter });
      expect(res.status, JSON.stringify(filter)).toBe(400);
      expect(res.body).toMatchObject({ errorCode: 400, error: { code: 'unsupported_operator' } });
      expect(res.body.error.supported_operators).toEqual([...OPERATORS]);
    }
  });

  it('runs $regex in linear time: a catastrophic pattern over a 50,000-character value just fails to match', async () => {
    const description = (pattern: string) => ({
      attributes: [{ key: { $eq: 'description' }, value: { $regex: pattern } }],
    });
    expect(await found(description('^(a+)+$'))).toEqual([]);
    expect(await found(description('^(a+)+b$'))).toEqual(['long-1']);
    expect(await found({ supplierSku: { $regex: '^(a|aa)+$' } })).toEqual([]);
    expect(await found(description('^A'))).toEqual([]); // case-sensitive
  });

  it('refuses $regex patterns the linear engine cannot run, and overlong ones', async () => {
    for (const pattern of ['(a)\\1', '^(?=a)', 'x'.repeat(1_001)]) {
      const res = await search({ filter: { supplierSku: { $regex: pattern } } });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({
        code: 'invalid_query_structure',
        details: { field: 'supplierSku.$regex' },
      });
    }
  });
});
