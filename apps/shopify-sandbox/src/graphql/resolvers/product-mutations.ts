import {
  handleFromTitle,
  normalizeTags,
  type ProductRecord,
  type ProductStatus,
} from '../../products/product.model.js';
import { normalizeHandle, productLimitProblems } from '../../products/product-limits.js';
import type { AdminContext } from '../admin-context.js';
import { applyMetafieldWrites, checkMetafieldWrites } from './metafield-writer.js';
import { productNode } from './product-view.js';
import { findProduct, notImplemented } from './query-root.js';

interface ProductUpdateInput {
  id?: string | null;
  title?: string | null;
  descriptionHtml?: string | null;
  seo?: { title?: string | null; description?: string | null } | null;
  vendor?: string | null;
  productType?: string | null;
  tags?: string[] | null;
  status?: string | null;
  handle?: string | null;
  templateSuffix?: string | null;
  metafields?: Array<{
    namespace?: string | null;
    key?: string | null;
    type?: string | null;
    value?: string | null;
  }> | null;
}

const SUPPORTED_UPDATE_FIELDS = new Set([
  'id',
  'title',
  'descriptionHtml',
  'seo',
  'vendor',
  'productType',
  'tags',
  'status',
  'handle',
  'templateSuffix',
  'metafields',
  // No effect here: the sandbox has no metafield definitions, nor handle redirects.
  'deleteConflictingConstrainedMetafields',
  'redirectNewHandle',
]);

/** `productUpdate`, `tagsAdd` and `tagsRemove`. Each successful call fires `products/update`. */
export const productMutations = {
  productUpdate: (
    args: {
      product?: ProductUpdateInput | null;
      input?: ProductUpdateInput | null;
      identifier?: unknown;
      media?: unknown;
    },
    ctx: AdminContext,
  ) => {
    if (args.identifier) throw notImplemented('productUpdate(identifier)');
    if (args.media) throw notImplemented('productUpdate(media)');
    const input = args.product ?? args.input ?? {};
    for (const key of Object.keys(input)) {
      if (!SUPPORTED_UPDATE_FIELDS.has(key)) throw notImplemented(`productUpdate(product.${key})`);
    }
    const product = input.id ? findProduct(ctx, input.id) : undefined;
    if (!product)
      return { product: null, userErrors: [{ field: ['id'], message: 'Product does not exist' }] };
    if (input.title !== undefined && !input.title?.trim()) {
      return { product: null, userErrors: [{ field: ['title'], message: "Title can't be blank" }] };
    }
    const tags = input.tags != null ? normalizeTags(input.tags) : undefined;
    const handle = input.handle != null ? productHandle(ctx, product, input.handle, input.title) : undefined;
    const problems = ctx.leniency.productLimits
      ? []
      : productLimitProblems({ title: input.title, handle: input.handle, tags }, 'update');
    if (problems.length > 0) {
      return { product: null, userErrors: problems.map((p) => ({ field: [p.field], message: p.graphql })) };
    }
    if (handle && 'taken' in handle) {
      const message = `Handle '${handle.taken}' already in use. Please provide a new handle.`;
      return { product: null, userErrors: [{ field: ['handle'], message }] };
    }
    const ownerId = `gid://shopify/Product/${product.id}`;
    const writes = (input.metafields ?? []).map((m) => ({
      ownerId,
      namespace: m.namespace,
      key: m.key ?? '',
      type: m.type,
      value: m.value ?? '',
    }));
    const metafieldErrors = checkMetafieldWrites(ctx, writes, ['metafields']);
    if (metafieldErrors.length > 0) {
      return { product: null, userErrors: metafieldErrors.map(({ field, message }) => ({ field, message })) };
    }
    if (input.title) product.title = input.title.trim();
    if (input.descriptionHtml !== undefined) product.bodyHtml = input.descriptionHtml;
    if (input.seo) {
      if (input.seo.title !== undefined) product.seoTitle = input.seo.title;
      if (input.seo.description !== undefined) product.seoDescription = input.seo.description;
    }
    if (input.vendor != null) product.vendor = input.vendor;
    if (input.productType != null) product.productType = input.productType;
    if (tags) product.tags = tags;
    if (input.status != null) product.status = input.status.toLowerCase() as ProductStatus;
    if (handle) product.handle = handle.handle;
    if (input.templateSuffix !== undefined) product.templateSuffix = input.templateSuffix;
    applyMetafieldWrites(ctx, writes);
    ctx.shop.products.save(product);
    return { product: productNode(ctx, product), userErrors: [] };
  },
  tagsAdd: (args: { id: string; tags: string[] }, ctx: AdminContext) => changeTags(ctx, args, 'add'),
  tagsRemove: (args: { id: string; tags: string[] }, ctx: AdminContext) => changeTags(ctx, args, 'remove'),
};

function changeTags(ctx: AdminContext, args: { id: string; tags: string[] }, change: 'add' | 'remove') {
  const product = findProduct(ctx, args.id);
  if (!product) {
    if (!args.id.startsWith('gid://shopify/Product/'))
      throw notImplemented(`tags${change === 'add' ? 'Add' : 'Remove'} on ${args.id}`);
    return { node: null, userErrors: [{ field: ['id'], message: 'Product does not exist' }] };
  }
  const given = normalizeTags(args.tags);
  if (change === 'add') {
    const tags = normalizeTags([...product.tags, ...given]);
    const problems = ctx.leniency.productLimits ? [] : productLimitProblems({ tags }, 'update');
    if (problems.length > 0) {
      return { node: null, userErrors: problems.map((p) => ({ field: ['tags'], message: p.graphql })) };
    }
    product.tags = tags;
  } else {
    const removed = new Set(given.map((tag) => tag.toLowerCase()));
    product.tags = product.tags.filter((tag) => !removed.has(tag.toLowerCase()));
  }
  ctx.shop.products.save(product);
  return { node: productNode(ctx, product), userErrors: [] };
}

/**
 * The handle a `productUpdate` sets: the given one normalised (the title's when nothing is left
 * of it). A handle another product uses is refused, or suffixed under `product-limits` leniency.
 */
function productHandle(
  ctx: AdminContext,
  product: ProductRecord,
  given: string,
  title: string | null | undefined,
): { handle: string } | { taken: string } {
  const wanted = normalizeHandle(given) ?? handleFromTitle(title?.trim() || product.title);
  const unique = ctx.shop.products.uniqueHandle(wanted, product.id);
  return unique === wanted || ctx.leniency.productLimits ? { handle: unique } : { taken: wanted };
}
