import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { buildClientSchema, type IntrospectionQuery, parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { PRODUCT_MEDIA_QUERY } from '../../clients/shopify/documents/product-media.query.js';
import { VARIANT_MEDIA_QUERY } from '../../clients/shopify/documents/variant-media.query.js';
import { MediaReadError, productImagesOf, variantImagesOf } from './product-media.reader.js';

const fixtures = new URL('../../../test/fixtures/shopify/', import.meta.url);

function adminSchema() {
  const raw = gunzipSync(readFileSync(new URL('admin-graphql-2026-07.introspection.json.gz', fixtures)));
  return buildClientSchema((JSON.parse(raw.toString('utf8')) as { data: IntrospectionQuery }).data);
}

describe('media queries', () => {
  it('are valid against the real Admin GraphQL 2026-07 schema', () => {
    const schema = adminSchema();
    for (const query of [PRODUCT_MEDIA_QUERY, VARIANT_MEDIA_QUERY]) {
      expect(validate(schema, parse(query)).map((e) => e.message)).toEqual([]);
    }
  });
});

describe('productImagesOf', () => {
  const answer = {
    product: {
      id: 'gid://shopify/Product/788032119674292922',
      media: {
        nodes: [
          {
            id: 'gid://shopify/MediaImage/900000000000000001',
            alt: 'Front',
            mediaContentType: 'IMAGE',
            image: { url: 'https://cdn.shopify.com/s/files/1/front.png?v=1' },
          },
          { id: 'gid://shopify/Video/5', alt: null, mediaContentType: 'VIDEO' },
          { id: 'gid://shopify/MediaImage/3', alt: null, mediaContentType: 'IMAGE', image: null },
        ],
      },
    },
  };

  it('keeps images in the order given, with ids beyond 2^53 intact; leaves other media out', () => {
    expect(productImagesOf(answer)).toEqual({
      productId: 'gid://shopify/Product/788032119674292922',
      images: [
        {
          id: 'gid://shopify/MediaImage/900000000000000001',
          alt: 'Front',
          url: 'https://cdn.shopify.com/s/files/1/front.png?v=1',
        },
        { id: 'gid://shopify/MediaImage/3', alt: null, url: null },
      ],
    });
  });

  it('answers null for a missing product and names a malformed field', () => {
    expect(productImagesOf({ product: null })).toBeNull();
    const broken = structuredClone(answer);
    (broken.product.media.nodes[0] as { id: unknown }).id = 12;
    expect(() => productImagesOf(broken)).toThrow(MediaReadError);
    expect(() => productImagesOf(broken)).toThrow(/product\.media\.nodes\[0\]\.id/);
  });
});

describe('variantImagesOf', () => {
  it('lists only variants with an image of their own', () => {
    const data = {
      product: {
        id: 'gid://shopify/Product/1',
        variants: {
          nodes: [
            {
              id: 'gid://shopify/ProductVariant/11',
              media: { nodes: [{ id: 'gid://shopify/MediaImage/3' }] },
            },
            { id: 'gid://shopify/ProductVariant/12', media: { nodes: [] } },
          ],
        },
      },
    };
    expect(variantImagesOf(data)).toEqual([
      { variantId: 'gid://shopify/ProductVariant/11', mediaIds: ['gid://shopify/MediaImage/3'] },
    ]);
    expect(variantImagesOf({ product: null })).toBeNull();
  });
});
