import { expect } from 'vitest';
import { type CatalogSandboxHarness, productBody, type TestAccount } from '#testing/catalog-sandbox';

/** Enrichment step delay (CATALOG_SANDBOX_ENRICHMENT_STEP_MS default). */
export const STEP_MS = 1000;
export type Entry = {
  key: string;
  value: unknown;
  blame?: string;
  sources?: Array<{ id: string; type: string }>;
};
export type Product = {
  skuId: string;
  updatedAt: number;
  attributes: Entry[];
  dataEnrichment?: { taskId: string; status: string; completedAt?: number };
  attributeSummary: {
    enrichableTotal: number;
    enrichableCompleted: number;
    enrichableCompletionRate: number;
  };
};

/** Enrichable for a simple T-shirt in the default seed (AI on, CUSTOM or LIB, applicable). */
export const TEE_ENRICHABLE = [
  'color',
  'weightGrams',
  'variantTitle',
  'material',
  'careInstructions',
  'fit',
  'neckline',
  'occasions',
  'manufacturerUrl',
  'aiTitle',
  'aiDescription',
  'seoTitle',
  'seoDescription',
  'aiTags',
  'aiBulletPoints',
];

/** Helpers of the enrichment suites, bound to one sandbox and account. */
/** Getters, because suites create the sandbox and account in beforeAll. */
export function enrichmentKit(sandbox: () => CatalogSandboxHarness, account: () => TestAccount) {
  const runs = () => `/portal/v1/accounts/${account().id}/enrichment/runs`;
  const read = async (skuId: string): Promise<Product> =>
    (await account().api.get(`/v1/products/${skuId}`)).body.data;
  /** Creates a product: name and brand (Acme) as productBody gives them, unless `extra` sets them. */
  async function create(supplierSku: string, extra: Array<{ key: string; value: unknown }> = []) {
    const body = productBody(supplierSku);
    const given = new Set(extra.map((e) => e.key));
    body.product.attributes = [...body.product.attributes.filter((a) => !given.has(a.key)), ...extra];
    const res = await account().api.post('/v1/products', body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data as Product;
  }
  /** A T-shirt with a real productModel; `extra` adds or replaces attributes. */
  function tee(supplierSku: string, extra: Array<{ key: string; value: unknown }> = []) {
    const attributes = new Map<string, unknown>([
      ['name', 'Basic tee'],
      ['productCategory', 'apparel-tops-tshirts'],
      ['productModel', 'AT-1000'],
    ]);
    for (const { key, value } of extra) attributes.set(key, value);
    return create(
      supplierSku,
      [...attributes].map(([key, value]) => ({ key, value })),
    );
  }
  async function start(body: unknown) {
    const res = await sandbox().portal.post(runs(), body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data;
  }
  return { runs, read, create, tee, start };
}
