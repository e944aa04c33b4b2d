import { describe, expect, it } from 'vitest';
import { jsonlLines } from './bulk-jsonl.js';
import { BulkResultError, bulkProducts } from './bulk-products.js';

function product(n: number): Record<string, unknown> {
  return {
    id: `gid://shopify/Product/${n}`,
    legacyResourceId: String(n),
    title: `P${n}`,
    handle: `p${n}`,
    vendor: 'V',
    productType: '',
    descriptionHtml: '',
    status: 'ACTIVE',
    tags: [],
    seo: { title: null, description: null },
    createdAt: '2026-11-01T00:00:00Z',
    updatedAt: '2026-11-01T00:00:00Z',
    hasOnlyDefaultVariant: false,
    options: [],
    variantsCount: { count: 2 },
  };
}

function variant(n: number, parent: number, position: number): Record<string, unknown> {
  return {
    id: `gid://shopify/ProductVariant/${n}`,
    legacyResourceId: String(n),
    title: `V${n}`,
    sku: `SKU-${n}`,
    barcode: null,
    price: '1.00',
    compareAtPrice: null,
    position,
    updatedAt: '2026-11-01T00:00:00Z',
    selectedOptions: [],
    inventoryItem: { duplicateSkuCount: 0 },
    __parentId: `gid://shopify/Product/${parent}`,
  };
}

async function* chunks(text: string, size: number): AsyncGenerator<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  for (let i = 0; i < bytes.length; i += size) yield bytes.slice(i, i + size);
}

async function collect(lines: string[], batchSize = 250) {
  const text = `${lines.join('\n')}\n`;
  const batches = [];
  for await (const batch of bulkProducts(jsonlLines(chunks(text, 7)), batchSize)) batches.push(batch);
  return batches;
}

describe('bulk JSONL into canonical products', () => {
  it('splits a body cut anywhere (multi-byte characters too) into its lines', async () => {
    const lines: string[] = [];
    for await (const line of jsonlLines(chunks('{"a":"é\\/x"}\n\n{"b":1}', 3))) lines.push(line);
    expect(lines).toEqual(['{"a":"é\\/x"}', '{"b":1}']);
  });

  it('groups ungrouped blocks (children after their whole block), in batches', async () => {
    const lines = [
      product(1),
      product(2),
      variant(12, 2, 2),
      variant(11, 1, 1),
      variant(21, 2, 1),
      {
        id: 'gid://shopify/MediaImage/5',
        alt: 'a',
        mediaContentType: 'IMAGE',
        image: { url: 'u' },
        __parentId: 'gid://shopify/Product/1',
      },
      product(3),
      variant(31, 3, 1),
    ].map((l) => JSON.stringify(l));
    const batches = await collect(lines, 1);
    expect(batches.map((b) => b.map((p) => p.legacyResourceId))).toEqual([['1'], ['2'], ['3']]);
    const two = batches[1]?.[0];
    expect(two?.variants.map((v) => v.legacyResourceId)).toEqual(['21', '12']);
    expect(batches[0]?.[0]?.media).toEqual([{ id: 'gid://shopify/MediaImage/5', alt: 'a', url: 'u' }]);
  });

  it('groups grouped output (children right after their parent) the same way', async () => {
    const lines = [product(1), variant(11, 1, 1), product(2), variant(21, 2, 1)].map((l) =>
      JSON.stringify(l),
    );
    const batches = await collect(lines);
    expect(batches.flat().map((p) => [p.legacyResourceId, p.variants.length])).toEqual([
      ['1', 1],
      ['2', 1],
    ]);
  });

  it('refuses a child whose product went out already, and a line that is not JSON', async () => {
    const orphan = [product(1), variant(11, 1, 1), product(2), variant(12, 1, 2)].map((l) =>
      JSON.stringify(l),
    );
    await expect(collect(orphan)).rejects.toBeInstanceOf(BulkResultError);
    await expect(collect(['{"id":'])).rejects.toBeInstanceOf(BulkResultError);
  });
});
