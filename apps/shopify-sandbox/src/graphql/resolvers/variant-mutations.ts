import { parseGid } from '../../common/gid.js';
import { rebuildOptions, variantProblems } from '../../merchant/variant-options.js';
import type { ProductRecord, VariantRecord } from '../../products/product.model.js';
import type { AdminContext } from '../admin-context.js';
import { applyMetafieldWrites, checkMetafieldWrites, type MetafieldWrite } from './metafield-writer.js';
import { productNode } from './product-view.js';
import { findProduct, notImplemented } from './query-root.js';
import { variantNode } from './variant-view.js';

interface VariantsBulkInput {
  id?: string | null;
  price?: string | number | null;
  compareAtPrice?: string | number | null;
  barcode?: string | null;
  inventoryPolicy?: string | null;
  taxable?: boolean | null;
  inventoryItem?: { sku?: string | null; tracked?: boolean | null; [other: string]: unknown } | null;
  optionValues?: Array<{ optionName?: string | null; optionId?: string | null; name?: string | null }> | null;
  metafields?: Array<{
    namespace?: string | null;
    key?: string | null;
    type?: string | null;
    value?: string | null;
  }> | null;
  inventoryQuantities?: unknown;
  [other: string]: unknown;
}

interface BulkError {
  field: string[];
  message: string;
  code: string;
}

const SUPPORTED = new Set([
  'id',
  'price',
  'compareAtPrice',
  'barcode',
  'inventoryPolicy',
  'taxable',
  'inventoryItem',
  'optionValues',
  'metafields',
  'inventoryQuantities',
]);

/** `productVariantsBulkUpdate`: all-or-nothing unless `allowPartialUpdates`; fires `products/update`. */
export const variantMutations = {
  productVariantsBulkUpdate: (
    args: {
      productId: string;
      variants: VariantsBulkInput[];
      allowPartialUpdates?: boolean | null;
      media?: unknown;
    },
    ctx: AdminContext,
  ) => {
    if (args.media) throw notImplemented('productVariantsBulkUpdate(media)');
    const product = findProduct(ctx, args.productId);
    if (!product) {
      return failed([
        { field: ['productId'], message: 'Product does not exist', code: 'PRODUCT_DOES_NOT_EXIST' },
      ]);
    }
    const now = ctx.clock.now();
    const errors: BulkError[] = [];
    const updates = new Map<VariantRecord, VariantRecord>();
    const writes: MetafieldWrite[] = [];
    for (const [index, input] of args.variants.entries()) {
      for (const key of Object.keys(input)) {
        if (!SUPPORTED.has(key)) throw notImplemented(`productVariantsBulkUpdate(variants.${key})`);
      }
      const result = updatedVariant(product, input, index, now);
      if ('error' in result) {
        errors.push(result.error);
        continue;
      }
      const mine = (input.metafields ?? []).map((m) => ({
        ownerId: input.id as string,
        namespace: m.namespace,
        key: m.key ?? '',
        type: m.type,
        value: m.value ?? '',
      }));
      const metafieldErrors = checkMetafieldWrites(ctx, mine, ['variants', String(index), 'metafields']);
      if (metafieldErrors.length > 0) {
        errors.push({ ...metafieldErrors[0], code: 'INVALID_INPUT' });
        continue;
      }
      updates.set(result.original, result.next);
      writes.push(...mine);
    }
    if (errors.length > 0 && !args.allowPartialUpdates) return failed(errors);
    const variants = product.variants.map((v) => updates.get(v) ?? v);
    const problems = variantProblems(variants);
    if (problems.length > 0)
      return failed(
        problems.map((message) => ({ field: ['variants'], message, code: 'VARIANT_ALREADY_EXISTS' })),
      );
    product.variants = variants;
    product.options = rebuildOptions(
      product.options,
      product.options.map((o) => o.name),
      variants,
      () => ctx.shop.ids.take(),
    );
    applyMetafieldWrites(ctx, writes);
    if (updates.size > 0) ctx.shop.products.save(product);
    return {
      product: productNode(ctx, product),
      productVariants: [...updates.values()].map((v) => variantNode(ctx, product, v)),
      userErrors: errors,
    };
  },
};

function updatedVariant(
  product: ProductRecord,
  input: VariantsBulkInput,
  index: number,
  now: number,
): { original: VariantRecord; next: VariantRecord } | { error: BulkError } {
  const at = (field: string) => ['variants', String(index), field];
  if (!input.id)
    return {
      error: {
        field: at('id'),
        message: 'Product variant is missing ID attribute',
        code: 'PRODUCT_VARIANT_ID_MISSING',
      },
    };
  const id = parseGid(input.id, 'ProductVariant');
  const original = product.variants.find((v) => v.id === id);
  if (!original) {
    return {
      error: {
        field: at('id'),
        message: 'Product variant does not exist',
        code: 'PRODUCT_VARIANT_DOES_NOT_EXIST',
      },
    };
  }
  if (input.inventoryQuantities) {
    return {
      error: {
        field: at('inventoryQuantities'),
        message:
          'Inventory quantities can only be provided during create. To update inventory for existing variants, use inventoryAdjustQuantities.',
        code: 'NO_INVENTORY_QUANTITIES_ON_VARIANTS_UPDATE',
      },
    };
  }
  const next: VariantRecord = { ...original, optionValues: [...original.optionValues] };
  for (const field of ['price', 'compareAtPrice'] as const) {
    const value = input[field];
    if (value === undefined) continue;
    if (value === null) {
      if (field === 'price')
        return { error: { field: at('price'), message: "Price can't be blank", code: 'INVALID_INPUT' } };
      next.compareAtPrice = null;
      continue;
    }
    const amount = Number(value);
    if (!Number.isFinite(amount))
      return { error: { field: at(field), message: 'Value is not a valid amount', code: 'INVALID_INPUT' } };
    if (amount < 0)
      return {
        error: {
          field: at(field),
          message: 'Price must be greater than or equal to 0',
          code: 'NEGATIVE_PRICE_VALUE',
        },
      };
    next[field] = amount.toFixed(2);
  }
  if (input.barcode !== undefined) next.barcode = input.barcode;
  if (input.inventoryPolicy)
    next.inventoryPolicy = input.inventoryPolicy === 'CONTINUE' ? 'continue' : 'deny';
  if (input.taxable != null) next.taxable = input.taxable;
  if (input.inventoryItem) {
    for (const key of Object.keys(input.inventoryItem)) {
      if (key !== 'sku' && key !== 'tracked')
        throw notImplemented(`productVariantsBulkUpdate(variants.inventoryItem.${key})`);
    }
    if (input.inventoryItem.sku !== undefined) next.sku = input.inventoryItem.sku;
    if (input.inventoryItem.tracked != null) next.tracked = input.inventoryItem.tracked;
  }
  for (const option of input.optionValues ?? []) {
    const position = product.options.findIndex(
      (o) =>
        o.name === option.optionName ||
        (option.optionId && option.optionId === `gid://shopify/ProductOption/${o.id}`),
    );
    if (position < 0)
      return {
        error: { field: at('optionValues'), message: 'Option does not exist', code: 'OPTION_DOES_NOT_EXIST' },
      };
    if (!option.name)
      return {
        error: { field: at('optionValues'), message: 'Option value name is required', code: 'INVALID_INPUT' },
      };
    next.optionValues[position] = option.name;
  }
  if (JSON.stringify(next) !== JSON.stringify(original)) next.updatedAt = now;
  return { original, next };
}

function failed(userErrors: BulkError[]) {
  return { product: null, productVariants: null, userErrors };
}
