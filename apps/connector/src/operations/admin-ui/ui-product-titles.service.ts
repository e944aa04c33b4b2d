import { Injectable } from '@nestjs/common';
import { InboxRepository } from '../../intake/inbox.repository.js';
import { ShopMappings } from '../../mapping/shop-mappings.service.js';
import { SkuMapTitles, type StoredTitle } from '../../product-sync/sku-map/sku-map-titles.repository.js';

/** Titles by product (`titleKey(shop, productId)`). */
export type ProductTitles = ReadonlyMap<string, string>;

/** A product's key in `ProductTitles`. */
export function titleKey(shop: string, productId: string): string {
  return `${shop} ${productId}`;
}

/** How much of a delivery's body is read for its title (the payload's product fields come first). */
const HEAD_BYTES = 4096;
const TITLE = /"title"\s*:\s*("(?:[^"\\]|\\.)*")/;

/**
 * The product title in the first bytes of a `products/*` payload (its first `"title"`: the
 * product's, ahead of its variants and options), or null.
 */
export function titleInPayloadHead(head: Buffer | string): string | null {
  const match = TITLE.exec(typeof head === 'string' ? head : head.toString('utf8'));
  if (!match?.[1]) return null;
  try {
    const title = JSON.parse(match[1]) as unknown;
    return typeof title === 'string' && title.trim() !== '' ? title : null;
  } catch {
    return null;
  }
}

/**
 * Why: lists show Shopify product ids, and operators know products by title. The title comes
 * from what the connector stores already, the cheapest first: the product's own catalog record's
 * snapshot (the attribute the shop's mapping sends Shopify's title to), else the latest kept
 * webhook payload of the product. One statement per source for a whole page, never one per row.
 */
@Injectable()
export class UiProductTitles {
  constructor(
    private readonly titles: SkuMapTitles,
    private readonly inbox: InboxRepository,
    private readonly mappings: ShopMappings,
  ) {}

  /** The titles known for `products` (duplicates and products without an id are skipped). */
  async of(products: Iterable<{ shop: string; productId: string | null }>): Promise<ProductTitles> {
    const wanted = new Map<string, { shop: string; productId: string }>();
    for (const p of products) {
      if (p.productId !== null && /^\d{1,20}$/.test(p.productId))
        wanted.set(titleKey(p.shop, p.productId), { shop: p.shop, productId: p.productId });
    }
    const found = new Map<string, string>();
    const lookups = [...wanted.values()].flatMap((p) => {
      const attribute = this.titleAttribute(p.shop);
      return attribute === null ? [] : [{ ...p, attribute }];
    });
    for (const t of await this.titles.titles(lookups)) found.set(titleKey(t.shop, t.productId), t.title);
    const missing = [...wanted.entries()].filter(([key]) => !found.has(key)).map(([, p]) => p);
    for (const row of await this.inbox.productHeads(missing, HEAD_BYTES)) {
      const title = titleInPayloadHead(row.head);
      if (title !== null) found.set(titleKey(row.shop, row.productId), title);
    }
    return found;
  }

  /** The connector's known products whose title contains `text` (in `shops`), at most `limit`. */
  search(shops: readonly string[], text: string, limit: number): Promise<StoredTitle[]> {
    const attributes = shops.flatMap((shop) => {
      const attribute = this.titleAttribute(shop);
      return attribute === null ? [] : [{ shop, attribute }];
    });
    return this.titles.titled(attributes, text, limit);
  }

  /** The catalog attribute the shop's checked mapping fills from Shopify's product title, or null. */
  private titleAttribute(shop: string): string | null {
    const entry = this.mappings.mapping(shop)?.productEntries.find((e) => e.field === 'title');
    return entry?.attribute ?? null;
  }
}
