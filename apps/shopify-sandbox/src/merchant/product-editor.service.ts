import { Inject, Injectable } from '@nestjs/common';
import { Clock } from '#lib/clock';
import { toGid } from '../common/gid.js';
import type { ShopifySandboxConfig } from '../config/shopify-sandbox.config.js';
import { ShopifyErrorCode, ShopifySandboxError } from '../http/shopify-sandbox.error.js';
import { ImageIngest } from '../images/image-ingest.service.js';
import {
  handleFromTitle,
  type ImageRecord,
  normalizeTags,
  type ProductRecord,
  type VariantRecord,
} from '../products/product.model.js';
import { normalizeHandle, productLimitProblems } from '../products/product-limits.js';
import { SANDBOX_CONFIG } from '../shopify-sandbox.tokens.js';
import type { Shop } from '../shops/shop.js';
import type { FieldErrors, ImageInput, ProductInput, VariantInput } from './product-input.js';
import { rebuildOptions, variantProblems } from './variant-options.js';

/** The sandbox's error (422, Shopify's field errors) for a merchant change that is not acceptable. */
export class ProductRejected extends ShopifySandboxError {
  constructor(override readonly errors: FieldErrors) {
    super(ShopifyErrorCode.UNPROCESSABLE_ENTITY, errors);
  }
}

/** Applies merchant (REST) product changes with Shopify's REST semantics; each one fires a webhook. */
@Injectable()
export class ProductEditor {
  constructor(
    private readonly clock: Clock,
    private readonly images: ImageIngest,
    @Inject(SANDBOX_CONFIG) private readonly config: ShopifySandboxConfig,
  ) {}

  create(shop: Shop, input: ProductInput): ProductRecord {
    if (!input.title?.trim()) throw new ProductRejected({ title: ["can't be blank"] });
    this.checkLimits(input, 'create');
    const handle = this.handle(shop, input.handle, input.title, undefined);
    const now = this.clock.now();
    const status = input.status ?? 'active';
    const product: ProductRecord = {
      id: shop.ids.take(),
      title: input.title.trim(),
      bodyHtml: input.bodyHtml ?? null,
      vendor: input.vendor ?? shop.name,
      productType: input.productType ?? '',
      handle,
      status,
      tags: normalizeTags(input.tags ?? []),
      templateSuffix: input.templateSuffix ?? null,
      seoTitle: input.seoTitle ?? null,
      seoDescription: input.seoDescription ?? null,
      publishedAt: status === 'active' ? now : null,
      createdAt: now,
      updatedAt: now,
      options: [],
      variants: [],
      images: [],
    };
    const optionNames = this.optionNames(input, undefined);
    product.variants = this.reconcileVariants(shop, product, input.variants ?? [], optionNames.length);
    this.finishOptions(shop, product, optionNames);
    product.images = this.reconcileImages(shop, product, input.images ?? [], product.variants);
    shop.products.insert(product);
    return product;
  }

  update(shop: Shop, product: ProductRecord, input: ProductInput): ProductRecord {
    if (input.title !== undefined && input.title.trim() === '') {
      throw new ProductRejected({ title: ["can't be blank"] });
    }
    this.checkLimits(input, 'update');
    const handle =
      input.handle !== undefined
        ? this.handle(shop, input.handle, input.title ?? product.title, product.id)
        : undefined;
    const optionNames = this.optionNames(input, product);
    const variants =
      input.variants !== undefined || optionNames.length !== product.options.length
        ? this.reconcileVariants(
            shop,
            product,
            input.variants ?? product.variants.map(keep),
            optionNames.length,
          )
        : product.variants;
    const images = input.images
      ? this.reconcileImages(shop, product, input.images, variants)
      : product.images;
    const imageIds = new Set(images.map((image) => image.id));
    for (const variant of variants)
      if (variant.imageId !== null && !imageIds.has(variant.imageId)) variant.imageId = null;
    if (input.title !== undefined) product.title = input.title.trim();
    if (input.bodyHtml !== undefined) product.bodyHtml = input.bodyHtml;
    if (input.vendor !== undefined) product.vendor = input.vendor;
    if (input.productType !== undefined) product.productType = input.productType;
    if (handle !== undefined) product.handle = handle;
    if (input.tags !== undefined) product.tags = normalizeTags(input.tags);
    if (input.templateSuffix !== undefined) product.templateSuffix = input.templateSuffix;
    if (input.seoTitle !== undefined) product.seoTitle = input.seoTitle;
    if (input.seoDescription !== undefined) product.seoDescription = input.seoDescription;
    if (input.status !== undefined) {
      product.status = input.status;
      if (input.status === 'active' && product.publishedAt === null) product.publishedAt = this.clock.now();
    }
    const keptImageIds = new Set(images.map((image) => image.id));
    for (const dropped of product.images.filter((old) => !keptImageIds.has(old.id))) {
      this.images.discard(shop, dropped);
    }
    shop.metafields.deleteOwners(
      removedVariantIds(product, variants).map((id) => toGid('ProductVariant', id)),
    );
    product.variants = variants;
    product.images = images;
    this.finishOptions(shop, product, optionNames);
    shop.products.save(product);
    return product;
  }

  delete(shop: Shop, product: ProductRecord): void {
    for (const image of product.images) this.images.discard(shop, image);
    shop.metafields.deleteOwners([
      toGid('Product', product.id),
      ...product.variants.map((v) => toGid('ProductVariant', v.id)),
    ]);
    shop.collections.forgetProduct(product.id);
    shop.products.remove(product.id);
  }

  /** Sets the available quantity of a variant's inventory item; fires `products/update`. */
  setInventory(shop: Shop, inventoryItemId: number, available: number): VariantRecord | undefined {
    const found = shop.products.findByInventoryItem(inventoryItemId);
    if (!found) return undefined;
    found.variant.oldInventoryQuantity = found.variant.inventoryQuantity;
    found.variant.inventoryQuantity = available;
    found.variant.updatedAt = this.clock.now();
    shop.products.save(found.product);
    return found.variant;
  }

  /** Shopify's limits on title, handle and tags (PUT replaces the tags), unless `product-limits` leniency. */
  private checkLimits(input: ProductInput, change: 'create' | 'update'): void {
    if (this.config.leniency.productLimits) return;
    const tags = input.tags === undefined ? undefined : normalizeTags(input.tags);
    const problems = productLimitProblems({ title: input.title, handle: input.handle, tags }, change);
    if (problems.length > 0) {
      throw new ProductRejected(Object.fromEntries(problems.map((p) => [p.field, [p.rest]])));
    }
  }

  /**
   * The handle to store: the given one normalised, else the title's. A handle derived from the
   * title gets a `-1`, `-2` suffix when taken, as on Shopify; a given one that is taken is
   * refused (suffixed too under `product-limits` leniency).
   */
  private handle(shop: Shop, given: string | undefined, title: string, ownId: number | undefined): string {
    const normalized = given === undefined ? undefined : normalizeHandle(given);
    const wanted = normalized ?? handleFromTitle(title.trim());
    const unique = shop.products.uniqueHandle(wanted, ownId);
    if (normalized !== undefined && unique !== wanted && !this.config.leniency.productLimits) {
      throw new ProductRejected({ handle: ['has already been taken'] });
    }
    return unique;
  }

  private optionNames(input: ProductInput, product: ProductRecord | undefined): string[] {
    if (input.options && input.options.length > 0) return input.options.map((o) => o.name);
    if (product && input.options === undefined) return product.options.map((o) => o.name);
    const widest = Math.max(1, ...(input.variants ?? []).map((v) => lastIndexOfValue(v.optionValues) + 1));
    return widest === 1 ? ['Title'] : Array.from({ length: widest }, (_, i) => `Option${i + 1}`);
  }

  private reconcileVariants(
    shop: Shop,
    product: ProductRecord,
    inputs: VariantInput[],
    optionCount: number,
  ): VariantRecord[] {
    const now = this.clock.now();
    const given = inputs.length > 0 ? inputs : [{ optionValues: [] }];
    const variants = given.map((input, index): VariantRecord => {
      const existing = input.id === undefined ? undefined : product.variants.find((v) => v.id === input.id);
      if (input.id !== undefined && !existing) {
        throw new ProductRejected({ variants: [`variant ${input.id} does not belong to this product`] });
      }
      const base: VariantRecord = existing ? { ...existing } : newVariant(shop, now);
      const values = Array.from(
        { length: optionCount },
        (_, i) => input.optionValues[i] ?? base.optionValues[i],
      );
      if (optionCount === 1 && values[0] === undefined) values[0] = 'Default Title';
      if (values.some((v) => v === undefined)) {
        throw new ProductRejected({
          variants: [`variant ${index + 1} needs a value for each of the ${optionCount} options`],
        });
      }
      const next: VariantRecord = {
        ...base,
        optionValues: values as string[],
        sku: input.sku !== undefined ? input.sku : base.sku,
        barcode: input.barcode !== undefined ? input.barcode : base.barcode,
        price: input.price ?? base.price,
        compareAtPrice: input.compareAtPrice !== undefined ? input.compareAtPrice : base.compareAtPrice,
        inventoryPolicy: input.inventoryPolicy ?? base.inventoryPolicy,
        taxable: input.taxable ?? base.taxable,
        position: index + 1,
      };
      if (input.inventoryQuantity !== undefined && input.inventoryQuantity !== base.inventoryQuantity) {
        next.oldInventoryQuantity = base.inventoryQuantity;
        next.inventoryQuantity = input.inventoryQuantity;
      }
      // A new variant has no earlier quantity: Shopify reports old_inventory_quantity equal to it.
      if (!existing) next.oldInventoryQuantity = next.inventoryQuantity;
      if (existing && JSON.stringify(existing) !== JSON.stringify(next)) next.updatedAt = now;
      return next;
    });
    const problems = variantProblems(variants);
    if (problems.length > 0) throw new ProductRejected({ base: problems });
    return variants;
  }

  private finishOptions(shop: Shop, product: ProductRecord, names: string[]): void {
    product.options = rebuildOptions(product.options, names, product.variants, () => shop.ids.take());
  }

  private reconcileImages(
    shop: Shop,
    product: ProductRecord,
    inputs: ImageInput[],
    variants: VariantRecord[],
  ): ImageRecord[] {
    const images = inputs.map((input, index): ImageRecord => {
      const existing = input.id === undefined ? undefined : product.images.find((i) => i.id === input.id);
      if (input.id !== undefined && !existing) {
        throw new ProductRejected({ images: [`image ${input.id} does not belong to this product`] });
      }
      if (existing) {
        const alt = input.alt !== undefined ? input.alt : existing.alt;
        const changed = alt !== existing.alt || existing.position !== index + 1;
        return {
          ...existing,
          alt,
          position: index + 1,
          updatedAt: changed ? this.clock.now() : existing.updatedAt,
        };
      }
      return this.images.ingest(shop, { ...input, position: index + 1 });
    });
    inputs.forEach((input, index) => {
      for (const variantId of input.variantIds ?? []) {
        const variant = variants.find((v) => v.id === variantId);
        if (variant) variant.imageId = images[index].id;
      }
    });
    return images;
  }
}

function newVariant(shop: Shop, now: number): VariantRecord {
  return {
    id: shop.ids.take(),
    inventoryItemId: shop.ids.take(),
    optionValues: [],
    sku: null,
    barcode: null,
    price: '0.00',
    compareAtPrice: null,
    position: 1,
    inventoryQuantity: 0,
    oldInventoryQuantity: 0,
    inventoryPolicy: 'deny',
    taxable: true,
    tracked: true,
    imageId: null,
    createdAt: now,
    updatedAt: now,
  };
}

function keep(variant: VariantRecord): VariantInput {
  return { id: variant.id, optionValues: [] };
}

function lastIndexOfValue(values: Array<string | undefined>): number {
  for (let i = values.length - 1; i >= 0; i--) if (values[i] !== undefined) return i;
  return -1;
}

function removedVariantIds(product: ProductRecord, next: VariantRecord[]): number[] {
  const kept = new Set(next.map((v) => v.id));
  return product.variants.filter((v) => !kept.has(v.id)).map((v) => v.id);
}
