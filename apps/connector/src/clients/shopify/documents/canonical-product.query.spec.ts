import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { buildClientSchema, type IntrospectionQuery, parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { isSimpleProduct, legacyIdOf } from '../canonical-product.js';
import { CanonicalReadError, readCanonicalProduct } from '../canonical-product.reader.js';
import {
  CANONICAL_PRODUCT_QUERY,
  type CanonicalSources,
  canonicalProductDocument,
  NO_EXTRA_SOURCES,
} from './canonical-product.query.js';

const RICH: CanonicalSources = {
  productMetafields: [
    { namespace: 'custom', key: 'material' },
    { namespace: '$app:catalog', key: 'care' },
  ],
  variantMetafields: [{ namespace: 'custom', key: 'weight_grams' }],
  category: true,
  collections: true,
};

const fixtures = new URL('../../../../test/fixtures/shopify/', import.meta.url);

function adminSchema() {
  const raw = gunzipSync(readFileSync(new URL('admin-graphql-2026-07.introspection.json.gz', fixtures)));
  return buildClientSchema((JSON.parse(raw.toString('utf8')) as { data: IntrospectionQuery }).data);
}

function fixtureText(name: string): string {
  return readFileSync(new URL(name, fixtures), 'utf8');
}

describe('CANONICAL_PRODUCT_QUERY', () => {
  it('is valid against the real Admin GraphQL 2026-07 schema', () => {
    const errors = validate(adminSchema(), parse(CANONICAL_PRODUCT_QUERY));
    expect(errors.map((e) => e.message)).toEqual([]);
  });
});

describe('canonicalProductDocument', () => {
  const combinations: Array<[string, CanonicalSources]> = [
    ['no extra sources', NO_EXTRA_SOURCES],
    ['every source', RICH],
    ['product metafields only', { ...NO_EXTRA_SOURCES, productMetafields: RICH.productMetafields }],
    ['variant metafields only', { ...NO_EXTRA_SOURCES, variantMetafields: RICH.variantMetafields }],
    ['the category only', { ...NO_EXTRA_SOURCES, category: true }],
    ['collections only', { ...NO_EXTRA_SOURCES, collections: true }],
  ];
  it.each(combinations)(
    'is valid against the real 2026-07 schema with %s, media or not',
    (_name, sources) => {
      const schema = adminSchema();
      for (const media of [true, false]) {
        const document = parse(canonicalProductDocument({ media, sources }));
        expect(validate(schema, document).map((e) => e.message)).toEqual([]);
        expect(document.definitions[0]).toMatchObject({ name: { value: 'CanonicalProduct' } });
      }
    },
  );

  it('asks for the sources only when the mapping uses them', () => {
    const plain = canonicalProductDocument({ media: false });
    expect(plain).toBe(canonicalProductDocument({ media: false, sources: NO_EXTRA_SOURCES }));
    expect(plain).not.toMatch(/metafield|category|collections/);
    const rich = canonicalProductDocument({ media: false, sources: RICH });
    expect(rich).toContain('mf0: metafield(namespace: "custom", key: "material")');
    expect(rich).toContain('mf1: metafield(namespace: "$app:catalog", key: "care")');
    expect(rich).toContain('collections(first: $collections)');
    expect(rich).toContain('$collections: Int = 25');
    expect(rich.match(/metafield\(/g)).toHaveLength(3);
  });
});

describe('readCanonicalProduct', () => {
  it('reads the docs example product exactly, ids beyond 2^53 included', () => {
    const body = JSON.parse(fixtureText('product-read.example-t-shirt.graphql.json')) as { data: unknown };
    const product = readCanonicalProduct(body.data);
    expect(product).not.toBeNull();
    expect(product?.id).toBe('gid://shopify/Product/788032119674292922');
    expect(product?.legacyResourceId).toBe('788032119674292922');
    expect(product?.variants.map((v) => v.legacyResourceId)).toEqual([
      '642667041472713922',
      '757650484644203962',
    ]);
    expect(product?.variants[0]?.price).toBe('19.99');
    expect(product?.variants[0]?.compareAtPrice).toBe('24.99');
    expect(product?.variantsCount).toBe(2);
    expect(product?.options).toEqual([
      { id: 'gid://shopify/ProductOption/594680422', name: 'Size', position: 1, values: ['Small', 'Medium'] },
    ]);
    expect(product && isSimpleProduct(product)).toBe(false);
  });

  it("reads the product's images in gallery order (videos left out), and none when more media exist than were read", () => {
    const body = JSON.parse(fixtureText('product-read.example-t-shirt.graphql.json')) as {
      data: { product: Record<string, unknown> };
    };
    expect(readCanonicalProduct(body.data)?.media).toBeUndefined();
    body.data.product.media = {
      nodes: [
        {
          id: 'gid://shopify/MediaImage/1',
          alt: 'front',
          mediaContentType: 'IMAGE',
          image: { url: 'https://cdn.shopify.com/a.jpg' },
        },
        { id: 'gid://shopify/Video/2', alt: null, mediaContentType: 'VIDEO' },
        { id: 'gid://shopify/MediaImage/3', alt: null, mediaContentType: 'IMAGE', image: null },
      ],
      pageInfo: { hasNextPage: false },
    };
    expect(readCanonicalProduct(body.data)?.media).toEqual([
      { id: 'gid://shopify/MediaImage/1', alt: 'front', url: 'https://cdn.shopify.com/a.jpg' },
      { id: 'gid://shopify/MediaImage/3', alt: null, url: null },
    ]);
    (body.data.product.media as { pageInfo: { hasNextPage: boolean } }).pageInfo.hasNextPage = true;
    expect(readCanonicalProduct(body.data)?.media).toBeUndefined();
  });

  it('reads the metafields, category and collections the document asked for, by namespace and key', () => {
    const body = JSON.parse(fixtureText('product-read.example-t-shirt.graphql.json')) as {
      data: { product: Record<string, unknown> & { variants: { nodes: Array<Record<string, unknown>> } } };
    };
    expect(readCanonicalProduct(body.data)).not.toHaveProperty('metafields');
    body.data.product.mf0 = { value: 'Linen', type: 'single_line_text_field' };
    body.data.product.mf1 = null;
    body.data.product.category = {
      id: 'gid://shopify/TaxonomyCategory/aa-1-13-8',
      name: 'T-Shirts',
      fullName: 'Apparel & Accessories > Clothing > Clothing Tops > T-Shirts',
    };
    body.data.product.collections = { nodes: [{ handle: 'summer' }], pageInfo: { hasNextPage: false } };
    for (const node of body.data.product.variants.nodes) node.mf0 = { value: '180', type: 'number_integer' };
    const product = readCanonicalProduct(body.data, RICH);
    expect(product?.metafields).toEqual({
      'custom.material': { value: 'Linen', type: 'single_line_text_field' },
      '$app:catalog.care': null,
    });
    expect(product?.category?.name).toBe('T-Shirts');
    expect(product?.collections).toEqual(['summer']);
    expect(product?.variants[0]?.metafields).toEqual({
      'custom.weight_grams': { value: '180', type: 'number_integer' },
    });
    body.data.product.category = null;
    expect(readCanonicalProduct(body.data, RICH)?.category).toBeNull();
    body.data.product.mf0 = { value: 12, type: 'number_integer' };
    expect(() => readCanonicalProduct(body.data, RICH)).toThrow('product.mf0.value must be a string');
  });

  it('answers null for a product that does not exist', () => {
    expect(readCanonicalProduct({ product: null })).toBeNull();
  });

  it('sorts variants by position', () => {
    const body = JSON.parse(fixtureText('product-read.example-t-shirt.graphql.json')) as {
      data: { product: { variants: { nodes: unknown[] } } };
    };
    body.data.product.variants.nodes.reverse();
    expect(readCanonicalProduct(body.data)?.variants.map((v) => v.position)).toEqual([1, 2]);
  });

  it('refuses a numeric id, naming the field (its digits may already be lost)', () => {
    const body = JSON.parse(fixtureText('product-read.example-t-shirt.graphql.json')) as {
      data: { product: { variants: { nodes: Array<Record<string, unknown>> } } };
    };
    const lossy = Number('757650484644203962');
    expect(String(lossy)).not.toBe('757650484644203962');
    (body.data.product.variants.nodes[1] as Record<string, unknown>).legacyResourceId = lossy;
    expect(() => readCanonicalProduct(body.data)).toThrow(CanonicalReadError);
    expect(() => readCanonicalProduct(body.data)).toThrow(
      `product.variants.nodes[1].legacyResourceId must be a string, got the number ${lossy}`,
    );
  });

  it('without a variant count, counts a further page as more variants than were read', () => {
    const body = JSON.parse(fixtureText('product-read.example-t-shirt.graphql.json')) as {
      data: { product: { variantsCount: unknown; variants: { pageInfo: { hasNextPage: boolean } } } };
    };
    body.data.product.variantsCount = null;
    expect(readCanonicalProduct(body.data)?.variantsCount).toBe(2);
    body.data.product.variants.pageInfo.hasNextPage = true;
    expect(readCanonicalProduct(body.data)?.variantsCount).toBe(3);
  });

  it('refuses an unknown status', () => {
    const body = JSON.parse(fixtureText('product-read.example-t-shirt.graphql.json')) as {
      data: { product: Record<string, unknown> };
    };
    body.data.product.status = 'active';
    expect(() => readCanonicalProduct(body.data)).toThrow('product.status must be one of');
  });
});

describe('isSimpleProduct', () => {
  const base = {
    id: 'gid://shopify/Product/1',
    legacyResourceId: '1',
    title: 'T',
    handle: 't',
    vendor: '',
    productType: '',
    descriptionHtml: '',
    status: 'ACTIVE' as const,
    tags: [],
    seo: { title: null, description: null },
    createdAt: '2026-01-01T00:00:00Z',
    updatedAt: '2026-01-01T00:00:00Z',
    options: [],
    variantsCount: 1,
  };
  const variant = (options: Array<{ name: string; value: string }>) => ({
    id: 'gid://shopify/ProductVariant/2',
    legacyResourceId: '2',
    title: 'Default Title',
    sku: null,
    barcode: null,
    price: '1.00',
    compareAtPrice: null,
    position: 1,
    updatedAt: '2026-01-01T00:00:00Z',
    selectedOptions: options,
    duplicateSkuCount: 0,
  });

  it('trusts hasOnlyDefaultVariant, and recognises the placeholder option without it', () => {
    expect(isSimpleProduct({ ...base, hasOnlyDefaultVariant: true, variants: [variant([])] })).toBe(true);
    const placeholder = variant([{ name: 'Title', value: 'Default Title' }]);
    expect(isSimpleProduct({ ...base, hasOnlyDefaultVariant: false, variants: [placeholder] })).toBe(true);
    const real = variant([{ name: 'Size', value: 'M' }]);
    expect(isSimpleProduct({ ...base, hasOnlyDefaultVariant: false, variants: [real] })).toBe(false);
  });
});

describe('legacyIdOf', () => {
  it('keeps every digit of a gid or a numeric string', () => {
    expect(legacyIdOf('gid://shopify/ProductVariant/757650484644203962')).toBe('757650484644203962');
    expect(legacyIdOf('788032119674292922')).toBe('788032119674292922');
    expect(() => legacyIdOf('abc')).toThrow('not a Shopify id');
  });
});
