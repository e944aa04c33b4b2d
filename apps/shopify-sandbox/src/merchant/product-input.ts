import { readPrice } from '../products/price.js';
import type { InventoryPolicy, ProductStatus } from '../products/product.model.js';

/** A REST product body (`{product: {...}}`), checked and typed. Absent fields stay undefined. */
export interface ProductInput {
  title?: string;
  bodyHtml?: string | null;
  vendor?: string;
  productType?: string;
  handle?: string;
  status?: ProductStatus;
  tags?: string[];
  templateSuffix?: string | null;
  seoTitle?: string | null;
  seoDescription?: string | null;
  options?: Array<{ name: string }>;
  variants?: VariantInput[];
  images?: ImageInput[];
}

export interface VariantInput {
  id?: number;
  sku?: string | null;
  barcode?: string | null;
  price?: string;
  compareAtPrice?: string | null;
  /** option1..option3; undefined where not given. */
  optionValues: Array<string | undefined>;
  inventoryQuantity?: number;
  inventoryPolicy?: InventoryPolicy;
  taxable?: boolean;
}

export interface ImageInput {
  id?: number;
  src?: string;
  attachment?: Buffer;
  filename?: string;
  alt?: string | null;
  variantIds?: number[];
}

/** Shopify's 422 body: `{"errors": {"<field>": ["<message>", ...]}}`. */
export type FieldErrors = Record<string, string[]>;

const STATUSES: readonly ProductStatus[] = ['active', 'draft', 'archived', 'unlisted'];

/** Reads a REST product body, collecting Shopify-style field errors rather than throwing. */
export function parseProductBody(body: unknown): { input: ProductInput } | { errors: FieldErrors } {
  const errors: FieldErrors = {};
  const fail = (field: string, message: string) => {
    errors[field] = [...(errors[field] ?? []), message];
  };
  const product = isObject(body) ? body.product : undefined;
  if (!isObject(product)) return { errors: { product: ['Required parameter missing or invalid'] } };
  const input: ProductInput = {};
  const text = (key: string, nullable: boolean): string | null | undefined => {
    const value = product[key];
    if (value === undefined) return undefined;
    if (value === null && nullable) return null;
    if (typeof value === 'string') return value;
    fail(key, 'must be a string');
    return undefined;
  };
  input.title = text('title', false) ?? undefined;
  input.bodyHtml = text('body_html', true);
  input.vendor = text('vendor', false) ?? undefined;
  input.productType = text('product_type', false) ?? undefined;
  input.handle = text('handle', false) ?? undefined;
  input.templateSuffix = text('template_suffix', true);
  input.seoTitle = text('metafields_global_title_tag', true);
  input.seoDescription = text('metafields_global_description_tag', true);
  const status = text('status', false);
  if (typeof status === 'string') {
    if ((STATUSES as readonly string[]).includes(status)) input.status = status as ProductStatus;
    else fail('status', `must be one of ${STATUSES.join(', ')}`);
  }
  const tags = product.tags;
  if (typeof tags === 'string') input.tags = [tags];
  else if (Array.isArray(tags) && tags.every((t) => typeof t === 'string')) input.tags = tags;
  else if (tags === null) input.tags = [];
  else if (tags !== undefined) fail('tags', 'must be a comma-separated string or a list of strings');
  input.options = listOf(product.options, 'options', fail, (o, i) => {
    if (typeof o.name === 'string' && o.name.trim() !== '') return { name: o.name.trim() };
    fail('options', `option ${i + 1} needs a name`);
    return undefined;
  });
  if (input.options && input.options.length > 3) fail('options', 'are too many (at most 3)');
  input.variants = listOf(product.variants, 'variants', fail, (v, i) => parseVariant(v, i, fail));
  input.images = listOf(product.images, 'images', fail, (img, i) => parseImage(img, i, fail));
  return Object.keys(errors).length > 0 ? { errors } : { input };
}

function parseVariant(v: Record<string, unknown>, i: number, fail: (f: string, m: string) => void) {
  const variant: VariantInput = { optionValues: [] };
  const where = `variant ${i + 1}`;
  if (v.id !== undefined) {
    if (isId(v.id)) variant.id = v.id;
    else fail('variants', `${where}: id must be a number`);
  }
  for (const key of ['sku', 'barcode'] as const) {
    if (v[key] === null || typeof v[key] === 'string') variant[key] = v[key];
    else if (v[key] !== undefined) fail('variants', `${where}: ${key} must be a string`);
  }
  const price = readPrice(v.price);
  if (price && 'problem' in price) fail('variants', `${where}: price ${price.problem}`);
  else if (price) variant.price = price.price;
  const compareAt = v.compare_at_price === '' ? undefined : readPrice(v.compare_at_price);
  if (compareAt && 'problem' in compareAt)
    fail('variants', `${where}: compare_at_price ${compareAt.problem}`);
  else if (v.compare_at_price !== undefined) variant.compareAtPrice = compareAt?.price ?? null;
  for (const n of [1, 2, 3]) {
    const value = v[`option${n}`];
    if (typeof value === 'string' && value.trim() !== '') variant.optionValues[n - 1] = value.trim();
    else if (value !== undefined && value !== null) fail('variants', `${where}: option${n} must be a string`);
  }
  if (v.inventory_quantity !== undefined) {
    if (Number.isInteger(v.inventory_quantity)) variant.inventoryQuantity = v.inventory_quantity as number;
    else fail('variants', `${where}: inventory_quantity must be an integer`);
  }
  if (v.inventory_policy === 'deny' || v.inventory_policy === 'continue') {
    variant.inventoryPolicy = v.inventory_policy;
  } else if (v.inventory_policy !== undefined)
    fail('variants', `${where}: inventory_policy must be deny or continue`);
  if (typeof v.taxable === 'boolean') variant.taxable = v.taxable;
  else if (v.taxable !== undefined) fail('variants', `${where}: taxable must be true or false`);
  return variant;
}

function parseImage(img: Record<string, unknown>, i: number, fail: (f: string, m: string) => void) {
  const image: ImageInput = {};
  const where = `image ${i + 1}`;
  if (img.id !== undefined) {
    if (isId(img.id)) image.id = img.id;
    else fail('images', `${where}: id must be a number`);
  }
  if (typeof img.src === 'string') {
    if (URL.canParse(img.src)) image.src = img.src;
    else fail('images', `${where}: src must be a URL`);
  }
  if (typeof img.attachment === 'string') image.attachment = Buffer.from(img.attachment, 'base64');
  if (typeof img.filename === 'string') image.filename = img.filename;
  if (img.alt === null || typeof img.alt === 'string') image.alt = img.alt;
  if (Array.isArray(img.variant_ids) && img.variant_ids.every(isId)) image.variantIds = img.variant_ids;
  if (image.id === undefined && image.src === undefined && image.attachment === undefined) {
    fail('images', `${where}: needs a src or an attachment`);
  }
  return image;
}

function listOf<T>(
  value: unknown,
  field: string,
  fail: (f: string, m: string) => void,
  parse: (item: Record<string, unknown>, index: number) => T | undefined,
): T[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || !value.every(isObject)) {
    fail(field, 'must be a list of objects');
    return undefined;
  }
  return value.map(parse).filter((item): item is T => item !== undefined);
}

function isId(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
