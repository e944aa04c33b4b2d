import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ProductRecord, VariantRecord } from './product.model.js';
import { emptyValue, productPayload } from './product-payload.js';

const docsExample = JSON.parse(
  readFileSync(
    new URL('../../test/fixtures/products_update.docs-example.metadata.json', import.meta.url),
    'utf8',
  ),
).response as Record<string, unknown>;

const at = Date.UTC(2022, 0, 1);
const variant = (id: number, position: number, updatedAt = at): VariantRecord => ({
  id,
  inventoryItemId: id + 1,
  optionValues: [`V${position}`],
  sku: null,
  barcode: null,
  price: '19.99',
  compareAtPrice: '24.99',
  position,
  inventoryQuantity: 75,
  oldInventoryQuantity: 75,
  inventoryPolicy: 'deny',
  taxable: true,
  tracked: true,
  imageId: null,
  createdAt: at,
  updatedAt,
});

const product: ProductRecord = {
  id: 1,
  title: 'Example T-Shirt',
  bodyHtml: 'An example T-Shirt',
  vendor: 'Acme',
  productType: 'Shirts',
  handle: 'example-t-shirt',
  status: 'active',
  tags: ['example', 'mens', 't-shirt'],
  templateSuffix: null,
  seoTitle: null,
  seoDescription: null,
  publishedAt: at,
  createdAt: at,
  updatedAt: at,
  options: [{ id: 9, name: 'Title', position: 1, values: ['V1', 'V2'] }],
  variants: [variant(10, 1), variant(20, 2, at + 5)],
  images: [],
};

describe('productPayload', () => {
  it("has the docs example's keys, in its order, for the product and its variants", () => {
    const payload = productPayload(product, { timeZone: 'America/New_York', emptyFields: 'mixed' });
    expect(Object.keys(payload)).toEqual(Object.keys(docsExample));
    const docsVariant = (docsExample.variants as Array<Record<string, unknown>>)[0];
    expect(Object.keys((payload.variants as Array<Record<string, unknown>>)[0])).toEqual(
      Object.keys(docsVariant),
    );
    expect(payload).toMatchObject({
      tags: 'example, mens, t-shirt',
      published_at: '2021-12-31T19:00:00-05:00',
      image: null,
      category: null,
    });
  });

  it('lists variant_gids most recently updated first, with millisecond UTC times', () => {
    const payload = productPayload(product, {
      timeZone: 'America/New_York',
      emptyFields: 'mixed',
      variantLimit: 1,
    });
    expect((payload.variants as unknown[]).length).toBe(1);
    expect(payload.variant_gids).toEqual([
      { admin_graphql_api_id: 'gid://shopify/ProductVariant/20', updated_at: '2022-01-01T00:00:00.005Z' },
      { admin_graphql_api_id: 'gid://shopify/ProductVariant/10', updated_at: '2022-01-01T00:00:00.000Z' },
    ]);
  });

  it("writes published_scope 'global', as a real 2026-04 delivery does", () => {
    const payload = productPayload(product, { timeZone: 'UTC', emptyFields: 'mixed' });
    expect(payload.published_scope).toBe('global');
  });

  it('writes empty text fields as "" for some products and null for others, the same for one product', () => {
    const blank = { ...product, bodyHtml: null, productType: '', tags: [], templateSuffix: '' };
    const forms = new Map<'' | null, number[]>();
    for (let id = 7_390_000_000_001; id < 7_390_000_000_041; id++) {
      const payload = productPayload({ ...blank, id }, { timeZone: 'UTC', emptyFields: 'mixed' });
      const form = emptyValue(id, 'mixed');
      expect(payload).toMatchObject({
        body_html: form,
        product_type: form,
        tags: form,
        template_suffix: form,
      });
      forms.set(form, [...(forms.get(form) ?? []), id]);
    }
    expect(forms.get('')?.length).toBeGreaterThan(forms.get(null)?.length ?? 0);
    expect(forms.get(null)?.length).toBeGreaterThan(0);
    const id = forms.get(null)?.[0] as number;
    expect(productPayload({ ...blank, id }, { timeZone: 'UTC', emptyFields: 'mixed' }).body_html).toBeNull();
  });

  it('writes one form only when a test asks for it by name', () => {
    const blank = { ...product, bodyHtml: null, productType: '', tags: [] };
    for (let id = 1; id < 20; id++) {
      expect(
        productPayload({ ...blank, id }, { timeZone: 'UTC', emptyFields: 'empty-string' }),
      ).toMatchObject({
        body_html: '',
        product_type: '',
        tags: '',
      });
      expect(productPayload({ ...blank, id }, { timeZone: 'UTC', emptyFields: 'null' })).toMatchObject({
        body_html: null,
        product_type: null,
        tags: null,
      });
    }
  });
});
