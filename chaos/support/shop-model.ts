import type { ChaosStack } from './chaos-stack.js';
import type { Random } from './seeded-random.js';

const SIZES = ['S', 'M', 'L', 'XL', 'XXL'];

/** What the merchant last made of a product: the state the catalog must end in. */
export interface ModelProduct {
  id: string;
  title: string;
  /** Variant ids (with their option value) still in the product; records only for a parent. */
  variants: Array<{ id: string; size: string | null }>;
  parent: boolean;
  deleted: boolean;
}

/**
 * The merchant's side of a scenario: creates, edits, variant removals and deletes through the
 * Shopify sandbox's merchant API, each remembered, so the expected end state is known without
 * asking either system.
 */
export class ShopModel {
  readonly products = new Map<string, ModelProduct>();
  private edits = 0;

  constructor(private readonly stack: ChaosStack) {}

  async create(index: number, variants: number): Promise<ModelProduct> {
    const sizes = variants > 1 ? SIZES.slice(0, variants) : [null];
    const answer = await this.stack.merchant('POST', 'products.json', {
      product: {
        title: `Chaos tee ${index}`,
        vendor: 'Acme',
        product_type: 'T-Shirts',
        ...(variants > 1 ? { options: [{ name: 'Size' }] } : {}),
        variants: sizes.map((size, v) => ({
          ...(size ? { option1: size } : {}),
          price: `${10 + (index % 40)}.00`,
          sku: `CHAOS-${index}-${v}`,
        })),
      },
    });
    const product = answer.product as { id: number; title: string; variants: Array<{ id: number }> };
    const model: ModelProduct = {
      id: String(product.id),
      title: product.title,
      variants: product.variants.map((v, i) => ({ id: String(v.id), size: sizes[i] ?? null })),
      parent: variants > 1,
      deleted: false,
    };
    this.products.set(model.id, model);
    return model;
  }

  /** Creates `count` products a few at a time; about a third with three sizes. */
  async createMany(count: number, random: Random, parallel = 6): Promise<void> {
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < count; i = next++) await this.create(i, random.next() < 0.35 ? 3 : 1);
    };
    await Promise.all(Array.from({ length: Math.min(parallel, count) }, worker));
  }

  /** A new title for a live product. */
  async edit(product: ModelProduct): Promise<void> {
    const title = `${product.title.replace(/ \(edit \d+\)$/, '')} (edit ${++this.edits})`;
    await this.stack.merchant('PUT', `products/${product.id}.json`, { product: { title } });
    product.title = title;
  }

  /** Removes the last variant of a live parent with three or more. */
  async removeVariant(product: ModelProduct): Promise<void> {
    if (!product.parent || product.variants.length < 3) return;
    const kept = product.variants.slice(0, -1);
    await this.stack.merchant('PUT', `products/${product.id}.json`, {
      product: { variants: kept.map((v) => ({ id: Number(v.id), option1: v.size })) },
    });
    product.variants = kept;
  }

  /** Adds the next size to a live parent with fewer than five: a sync creates its record. */
  async addVariant(product: ModelProduct): Promise<void> {
    if (!product.parent || product.deleted || product.variants.length >= SIZES.length) return;
    const size = SIZES.find((s) => !product.variants.some((v) => v.size === s)) as string;
    const answer = await this.stack.merchant('PUT', `products/${product.id}.json`, {
      product: {
        variants: [
          ...product.variants.map((v) => ({ id: Number(v.id), option1: v.size })),
          { option1: size, price: '19.00', sku: `CHAOS-${product.id}-${size}` },
        ],
      },
    });
    const variants = (answer.product as { variants: Array<{ id: number; option1?: string | null }> })
      .variants;
    const added = variants.find((v) => !product.variants.some((known) => known.id === String(v.id)));
    if (added) product.variants = [...product.variants, { id: String(added.id), size }];
  }

  async delete(product: ModelProduct): Promise<void> {
    await this.stack.merchant('DELETE', `products/${product.id}.json`);
    product.deleted = true;
  }

  /** A seeded mix of edits (most), variant removals and deletes over live products. */
  async churn(changes: number, random: Random): Promise<void> {
    for (let i = 0; i < changes; i++) {
      const live = [...this.products.values()].filter((p) => !p.deleted);
      if (live.length === 0) return;
      const product = random.pick(live);
      const draw = random.next();
      if (draw < 0.12) await this.delete(product);
      else if (draw < 0.3 && product.parent && product.variants.length >= 3)
        await this.removeVariant(product);
      else await this.edit(product);
    }
  }

  live(): ModelProduct[] {
    return [...this.products.values()].filter((p) => !p.deleted);
  }
}
