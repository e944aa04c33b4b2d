/** In-memory records of a shop's catalog. Times are epoch milliseconds. */

export type ProductStatus = 'active' | 'draft' | 'archived' | 'unlisted';
export type InventoryPolicy = 'deny' | 'continue';

export interface OptionRecord {
  id: number;
  name: string;
  position: number;
  /** Distinct values in the order variants first use them. */
  values: string[];
}

export interface VariantRecord {
  id: number;
  inventoryItemId: number;
  /** Values of option1..option3; as many as the product has options. */
  optionValues: string[];
  sku: string | null;
  barcode: string | null;
  price: string;
  compareAtPrice: string | null;
  position: number;
  inventoryQuantity: number;
  oldInventoryQuantity: number;
  inventoryPolicy: InventoryPolicy;
  taxable: boolean;
  tracked: boolean;
  imageId: number | null;
  createdAt: number;
  updatedAt: number;
}

export interface ImageRecord {
  /** REST `images[].id` (`gid://shopify/ProductImage/<id>`). */
  id: number;
  /** REST `media[].id` and GraphQL media id (`gid://shopify/MediaImage/<id>`). */
  mediaId: number;
  position: number;
  alt: string | null;
  /** The URL the sandbox serves the bytes at. */
  src: string;
  width: number | null;
  height: number | null;
  createdAt: number;
  updatedAt: number;
}

export interface ProductRecord {
  id: number;
  title: string;
  bodyHtml: string | null;
  vendor: string;
  productType: string;
  handle: string;
  status: ProductStatus;
  tags: string[];
  templateSuffix: string | null;
  seoTitle: string | null;
  seoDescription: string | null;
  publishedAt: number | null;
  createdAt: number;
  updatedAt: number;
  options: OptionRecord[];
  variants: VariantRecord[];
  images: ImageRecord[];
}

/** Variant title as Shopify builds it: option values joined by " / ". */
export function variantTitle(variant: VariantRecord): string {
  return variant.optionValues.join(' / ');
}

/** Tags as Shopify keeps them: trimmed, without empties or case-insensitive duplicates, sorted. */
export function normalizeTags(tags: Iterable<string>): string[] {
  const byLower = new Map<string, string>();
  for (const raw of tags) {
    for (const tag of raw.split(',')) {
      const trimmed = tag.trim();
      if (trimmed !== '' && !byLower.has(trimmed.toLowerCase())) byLower.set(trimmed.toLowerCase(), trimmed);
    }
  }
  return [...byLower.values()].sort((a, b) => a.localeCompare(b));
}

/** A URL-safe handle from a title, as Shopify derives one. */
export function handleFromTitle(title: string): string {
  return slugify(title) || 'product';
}

/** Lower case, accents dropped, every run of other characters one `-`, no `-` at either end. */
export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}
