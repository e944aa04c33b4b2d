import type { BenchStack } from './bench-stack.js';

const SIZES = ['Small', 'Medium', 'Large', 'X-Large', 'XS', 'XXL', 'XXXL', '4XL', '5XL', '6XL'];

/** A merchant product body: `variants` sizes (one: a simple product), no images. */
export function productBody(index: number, variants: number): Record<string, unknown> {
  return {
    title: `Bench tee ${index}`,
    vendor: 'Acme',
    product_type: 'T-Shirts',
    body_html: `<p>Bench product ${index}.</p>`,
    ...(variants > 1 ? { options: [{ name: 'Size' }] } : {}),
    variants: Array.from({ length: variants }, (_, v) => ({
      ...(variants > 1 ? { option1: SIZES[v % SIZES.length] } : {}),
      price: `${10 + (index % 50)}.00`,
      sku: `BENCH-${index}-${v}`,
      inventory_quantity: 10,
    })),
  };
}

/**
 * Creates `count` products through the Shopify sandbox's merchant API, a few at a time; returns
 * them as the API answered (REST shape, with ids and inventory item ids).
 */
export async function createProducts(
  stack: BenchStack,
  count: number,
  variants: number,
  parallel = 8,
): Promise<Array<Record<string, unknown> & { id: number }>> {
  const products: Array<Record<string, unknown> & { id: number }> = new Array(count);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < count; i = next++) {
      const answer = await stack.merchant('POST', 'products.json', { product: productBody(i, variants) });
      products[i] = answer.product as Record<string, unknown> & { id: number };
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, count) }, worker));
  return products;
}
