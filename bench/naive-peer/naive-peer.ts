import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CatalogClient } from '#lib/catalog-client';
import type { AttributeInput } from '#lib/catalog-contract';

/** The part of a Shopify REST product payload the naive peer reads. */
interface ShopifyProductPayload {
  id: number;
  title?: string;
  vendor?: string | null;
  body_html?: string | null;
  product_type?: string | null;
  options?: Array<{ name: string; position: number }>;
  variants?: Array<Record<string, unknown> & { id: number; price?: string | null }>;
}

// The same value tables as the reference mapping (apps/connector/mappings/demo.yaml), so both
// systems write the same attributes.
const CATEGORIES: Record<string, string> = {
  Shirts: 'apparel-tops-shirts',
  'T-Shirts': 'apparel-tops-tshirts',
  Tees: 'apparel-tops-tshirts',
  Sweaters: 'apparel-tops-sweaters',
  Jeans: 'apparel-bottoms-jeans',
  Shorts: 'apparel-bottoms-shorts',
  Sneakers: 'footwear-sneakers',
  Boots: 'footwear-boots',
  Cookware: 'home-kitchen-cookware',
  Knives: 'home-kitchen-knives',
};
const OPTIONS: Record<string, { attribute: string; values: Record<string, string> }> = {
  size: { attribute: 'size', values: { Small: 'S', Medium: 'M', Large: 'L', 'X-Large': 'XL' } },
  color: { attribute: 'color', values: { Gray: 'Grey', Charcoal: 'Grey', 'Navy Blue': 'Navy' } },
  colour: { attribute: 'color', values: { Gray: 'Grey', Charcoal: 'Grey', 'Navy Blue': 'Navy' } },
};

/** What the peer did, for the benchmark's report. */
export interface NaivePeerStats {
  deliveries: number;
  rejected: number;
  failed: number;
  catalogCalls: number;
}

/**
 * The naive peer: a webhook handler built the way most connectors are. It verifies the HMAC,
 * reads the payload and calls the catalog inline, before it answers: a create when it has not
 * seen the supplierSku yet, else a PATCH of the product and of every variant, whatever changed
 * (no map snapshot to compare with, no coalescing, no queue). It keeps only supplierSku to skuId
 * in memory. The benchmarks run it beside the connector, on the same stack, to give their
 * figures a scale (bench/README.md).
 */
export class NaivePeer {
  readonly stats: NaivePeerStats = { deliveries: 0, rejected: 0, failed: 0, catalogCalls: 0 };
  /**
   * supplierSku to skuId; a create still in flight is kept as its promise, so a second delivery of
   * a product just created waits for it (without this, the create and the update Shopify sends
   * after it both POST, and the catalog holds the product twice).
   */
  private readonly skus = new Map<string, Promise<string>>();
  private readonly variantsOf = new Map<string, string[]>();

  constructor(
    private readonly secret: string,
    private readonly catalog: CatalogClient,
  ) {}

  /** Answers one request (`POST /webhooks/shopify`); a multi-shop server hands each shop's deliveries to its own peer. */
  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const answer = (status: number, text: string) => {
      res.writeHead(status, { 'Content-Type': 'application/json' }).end(text);
    };
    if (req.method !== 'POST' || req.url !== '/webhooks/shopify') return answer(404, '{}');
    if (!this.verified(body, String(req.headers['x-shopify-hmac-sha256'] ?? ''))) {
      this.stats.rejected++;
      return answer(401, '{"error":"bad signature"}');
    }
    this.stats.deliveries++;
    try {
      const topic = String(req.headers['x-shopify-topic'] ?? '');
      const product = JSON.parse(body.toString('utf8')) as ShopifyProductPayload;
      if (topic === 'products/delete') await this.remove(product.id);
      else if (topic === 'products/create' || topic === 'products/update') await this.upsert(product);
      answer(200, '{"ok":true}');
    } catch (error) {
      this.stats.failed++;
      if (this.stats.failed <= 5) process.stderr.write(`naive peer: ${String(error)}\n`);
      answer(500, JSON.stringify({ error: error instanceof Error ? error.message : String(error) }));
    }
  }

  private verified(body: Buffer, signature: string): boolean {
    const expected = createHmac('sha256', this.secret).update(body).digest();
    const given = Buffer.from(signature, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  private async upsert(product: ShopifyProductPayload): Promise<void> {
    const supplierSku = `peer:product:${product.id}`;
    const variants = product.variants ?? [];
    const simple = variants.length <= 1;
    const attributes = [
      ...productAttributes(product),
      ...(simple && variants[0] ? variantAttributes(product, variants[0]) : []),
    ];
    const skuId = this.skus.get(supplierSku);
    this.stats.catalogCalls++;
    if (skuId !== undefined) {
      await this.catalog.updateProductBySkuId(await skuId, { product: { supplierSku, attributes } });
    } else {
      await this.remember(
        supplierSku,
        this.catalog.createProduct({ product: { supplierSku, attributes } }).then((r) => r.skuId),
      );
    }
    if (simple) return;
    const own: string[] = [];
    for (const variant of variants) {
      const variantSku = `peer:variant:${variant.id}`;
      own.push(variantSku);
      const variantAttrs = variantAttributes(product, variant);
      const known = this.skus.get(variantSku);
      this.stats.catalogCalls++;
      if (known !== undefined) {
        await this.catalog.updateVariant(await known, {
          product: { supplierSku: variantSku, attributes: variantAttrs },
        });
      } else {
        const create = this.catalog.createVariant({
          parentSupplierSku: supplierSku,
          supplierSku: variantSku,
          attributes: variantAttrs,
        });
        await this.remember(
          variantSku,
          create.then((r) => r.skuId),
        );
      }
    }
    this.variantsOf.set(supplierSku, own);
  }

  /** Keeps a create's skuId (its promise at once); forgets it if the create failed. */
  private async remember(supplierSku: string, skuId: Promise<string>): Promise<void> {
    this.skus.set(supplierSku, skuId);
    try {
      await skuId;
    } catch (error) {
      this.skus.delete(supplierSku);
      throw error;
    }
  }

  private async remove(productId: number): Promise<void> {
    const supplierSku = `peer:product:${productId}`;
    for (const variantSku of this.variantsOf.get(supplierSku) ?? []) {
      const skuId = this.skus.get(variantSku);
      if (skuId === undefined) continue;
      this.stats.catalogCalls++;
      await this.catalog.deleteVariant(await skuId);
      this.skus.delete(variantSku);
    }
    const skuId = this.skus.get(supplierSku);
    if (skuId === undefined) return;
    this.stats.catalogCalls++;
    await this.catalog.deleteProduct(await skuId);
    this.skus.delete(supplierSku);
    this.variantsOf.delete(supplierSku);
  }
}

function productAttributes(product: ShopifyProductPayload): AttributeInput[] {
  const attributes: AttributeInput[] = [
    { key: 'name', value: product.title ?? '' },
    { key: 'brand', value: product.vendor || 'Unbranded' },
  ];
  if (product.body_html) attributes.push({ key: 'description', value: product.body_html });
  const category = CATEGORIES[product.product_type ?? ''];
  if (category) attributes.push({ key: 'productCategory', value: category });
  return attributes;
}

function variantAttributes(
  product: ShopifyProductPayload,
  variant: NonNullable<ShopifyProductPayload['variants']>[number],
): AttributeInput[] {
  const attributes: AttributeInput[] = [];
  if (variant.price) attributes.push({ key: 'price', value: variant.price });
  for (const option of product.options ?? []) {
    const rule = OPTIONS[option.name.toLowerCase()];
    const value = variant[`option${option.position}`];
    if (!rule || typeof value !== 'string' || value === 'Default Title') continue;
    attributes.push({ key: rule.attribute, value: rule.values[value] ?? value });
  }
  return attributes;
}
