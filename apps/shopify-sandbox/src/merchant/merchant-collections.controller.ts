import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  HttpStatus,
  Inject,
  Param,
  Post,
  Put,
  Query,
  UseGuards,
  UseInterceptors,
} from '@nestjs/common';
import type { CollectionKind, CollectionRecord } from '../collections/collection.store.js';
import { CollectionEditor } from '../collections/collection-editor.service.js';
import { parseCollectionBody } from '../collections/collection-input.js';
import { collectionPayload, collectPayload } from '../collections/collection-payload.js';
import type { ShopifySandboxConfig } from '../config/shopify-sandbox.config.js';
import { ShopifySandboxError } from '../http/shopify-sandbox.error.js';
import { SANDBOX_CONFIG } from '../shopify-sandbox.tokens.js';
import { AdminAccessGuard, CurrentShop } from '../shops/admin-access.guard.js';
import { RestRequestLogInterceptor } from '../shops/rest-request-log.interceptor.js';
import type { Shop } from '../shops/shop.js';

/**
 * The merchant's collections: Shopify's REST `custom_collections`, `smart_collections` and
 * `collects` endpoints. Every change fires the matching `collections/*` webhook.
 */
@Controller('admin/api/:version')
@UseGuards(AdminAccessGuard)
@UseInterceptors(RestRequestLogInterceptor)
export class MerchantCollectionsController {
  constructor(
    private readonly editor: CollectionEditor,
    @Inject(SANDBOX_CONFIG) private readonly config: ShopifySandboxConfig,
  ) {}

  @Get('custom_collections.json')
  listCustom(@CurrentShop() shop: Shop, @Query('product_id') productId?: string) {
    return { custom_collections: this.list(shop, 'custom', productId) };
  }

  @Get('smart_collections.json')
  listSmart(@CurrentShop() shop: Shop, @Query('product_id') productId?: string) {
    return { smart_collections: this.list(shop, 'smart', productId) };
  }

  @Post('custom_collections.json')
  @HttpCode(HttpStatus.CREATED)
  createCustom(@CurrentShop() shop: Shop, @Body() body: unknown) {
    return {
      custom_collection: this.present(
        this.editor.create(shop, 'custom', this.parse(body, 'custom', 'create')),
      ),
    };
  }

  @Post('smart_collections.json')
  @HttpCode(HttpStatus.CREATED)
  createSmart(@CurrentShop() shop: Shop, @Body() body: unknown) {
    return {
      smart_collection: this.present(this.editor.create(shop, 'smart', this.parse(body, 'smart', 'create'))),
    };
  }

  @Get('custom_collections/:file')
  readCustom(@CurrentShop() shop: Shop, @Param('file') file: string) {
    return { custom_collection: this.present(this.find(shop, 'custom', file)) };
  }

  @Get('smart_collections/:file')
  readSmart(@CurrentShop() shop: Shop, @Param('file') file: string) {
    return { smart_collection: this.present(this.find(shop, 'smart', file)) };
  }

  @Put('custom_collections/:file')
  updateCustom(@CurrentShop() shop: Shop, @Param('file') file: string, @Body() body: unknown) {
    const collection = this.find(shop, 'custom', file);
    const input = this.parse(body, 'custom', 'update');
    return { custom_collection: this.present(this.editor.update(shop, collection, input)) };
  }

  @Put('smart_collections/:file')
  updateSmart(@CurrentShop() shop: Shop, @Param('file') file: string, @Body() body: unknown) {
    const collection = this.find(shop, 'smart', file);
    const input = this.parse(body, 'smart', 'update');
    return { smart_collection: this.present(this.editor.update(shop, collection, input)) };
  }

  @Delete('custom_collections/:file')
  removeCustom(@CurrentShop() shop: Shop, @Param('file') file: string) {
    this.editor.delete(shop, this.find(shop, 'custom', file));
    return {};
  }

  @Delete('smart_collections/:file')
  removeSmart(@CurrentShop() shop: Shop, @Param('file') file: string) {
    this.editor.delete(shop, this.find(shop, 'smart', file));
    return {};
  }

  @Get('collects.json')
  listCollects(
    @CurrentShop() shop: Shop,
    @Query('collection_id') collectionId?: string,
    @Query('product_id') productId?: string,
  ) {
    const collects = shop.collections
      .list()
      .filter((c) => c.kind === 'custom' && (!collectionId || c.id === Number(collectionId)))
      .flatMap((c) => c.collects.map((collect) => collectPayload(c, collect, this.config.timeZone)))
      .filter((collect) => !productId || collect.product_id === Number(productId));
    return { collects };
  }

  @Post('collects.json')
  @HttpCode(HttpStatus.CREATED)
  addCollect(@CurrentShop() shop: Shop, @Body() body: unknown) {
    const given = (body as { collect?: { product_id?: unknown; collection_id?: unknown } } | null)?.collect;
    if (!given)
      throw ShopifySandboxError.unprocessable({ collect: ['Required parameter missing or invalid'] });
    const collection = shop.collections.get(Number(given.collection_id));
    if (!collection) throw ShopifySandboxError.unprocessable({ collection: ["can't be blank"] });
    const collect = this.editor.addProduct(shop, collection, Number(given.product_id));
    return { collect: collectPayload(collection, collect, this.config.timeZone) };
  }

  @Get('collects/:file')
  readCollect(@CurrentShop() shop: Shop, @Param('file') file: string) {
    const found = shop.collections.findCollect(fileId(file));
    if (!found) throw ShopifySandboxError.notFound();
    return { collect: collectPayload(found.collection, found.collect, this.config.timeZone) };
  }

  @Delete('collects/:file')
  removeCollect(@CurrentShop() shop: Shop, @Param('file') file: string) {
    const found = shop.collections.findCollect(fileId(file));
    if (!found) throw ShopifySandboxError.notFound();
    this.editor.removeCollect(shop, found.collection, found.collect.id);
    return {};
  }

  private list(shop: Shop, kind: CollectionKind, productId: string | undefined) {
    const product = productId === undefined ? undefined : shop.products.get(Number(productId));
    if (productId !== undefined && !product) return [];
    const collections = product ? shop.collections.collectionsOf(product) : shop.collections.list();
    return collections.filter((c) => c.kind === kind).map((c) => this.present(c));
  }

  private find(shop: Shop, kind: CollectionKind, file: string): CollectionRecord {
    const collection = shop.collections.get(fileId(file));
    if (!collection || collection.kind !== kind) throw ShopifySandboxError.notFound();
    return collection;
  }

  private parse(body: unknown, kind: CollectionKind, change: 'create' | 'update') {
    const parsed = parseCollectionBody(body, kind, change);
    if ('errors' in parsed) throw ShopifySandboxError.unprocessable(parsed.errors);
    return parsed.input;
  }

  private present(collection: CollectionRecord) {
    return collectionPayload(collection, this.config.timeZone);
  }
}

/** `123.json` → 123; anything else → NaN (not found). */
function fileId(file: string): number {
  const match = /^(\d{1,16})\.json$/.exec(file);
  return match ? Number(match[1]) : Number.NaN;
}
