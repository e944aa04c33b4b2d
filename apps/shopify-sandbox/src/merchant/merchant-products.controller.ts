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
import type { ShopifySandboxConfig } from '../config/shopify-sandbox.config.js';
import { ShopifySandboxError } from '../http/shopify-sandbox.error.js';
import type { ProductRecord } from '../products/product.model.js';
import { productPayload } from '../products/product-payload.js';
import { SANDBOX_CONFIG } from '../shopify-sandbox.tokens.js';
import { AdminAccessGuard, CurrentShop } from '../shops/admin-access.guard.js';
import { RestRequestLogInterceptor } from '../shops/rest-request-log.interceptor.js';
import type { Shop } from '../shops/shop.js';
import { ProductEditor } from './product-editor.service.js';
import { parseProductBody } from './product-input.js';

/**
 * The merchant API: Shopify's REST Admin product endpoints, which tests, demos and scripts use
 * to act as the merchant. Every change fires the matching `products/*` webhook.
 */
@Controller('admin/api/:version')
@UseGuards(AdminAccessGuard)
@UseInterceptors(RestRequestLogInterceptor)
export class MerchantProductsController {
  constructor(
    private readonly editor: ProductEditor,
    @Inject(SANDBOX_CONFIG) private readonly config: ShopifySandboxConfig,
  ) {}

  @Get('products.json')
  list(@CurrentShop() shop: Shop, @Query('limit') limit?: string) {
    const max = Math.min(250, Math.max(1, Number(limit ?? 50) || 50));
    return {
      products: shop.products
        .list()
        .slice(0, max)
        .map((p) => this.present(p)),
    };
  }

  @Post('products.json')
  @HttpCode(HttpStatus.CREATED)
  create(@CurrentShop() shop: Shop, @Body() body: unknown) {
    const input = this.parse(body);
    return { product: this.present(this.editor.create(shop, input)) };
  }

  @Get('products/:file')
  read(@CurrentShop() shop: Shop, @Param('file') file: string) {
    return { product: this.present(this.find(shop, file)) };
  }

  @Put('products/:file')
  update(@CurrentShop() shop: Shop, @Param('file') file: string, @Body() body: unknown) {
    const product = this.find(shop, file);
    const input = this.parse(body);
    return { product: this.present(this.editor.update(shop, product, input)) };
  }

  @Delete('products/:file')
  remove(@CurrentShop() shop: Shop, @Param('file') file: string) {
    this.editor.delete(shop, this.find(shop, file));
    return {};
  }

  private find(shop: Shop, file: string): ProductRecord {
    const match = /^(\d{1,16})\.json$/.exec(file);
    const product = match ? shop.products.get(Number(match[1])) : undefined;
    if (!product) throw ShopifySandboxError.notFound();
    return product;
  }

  private parse(body: unknown) {
    const parsed = parseProductBody(body);
    if ('errors' in parsed) throw ShopifySandboxError.unprocessable(parsed.errors);
    return parsed.input;
  }

  private present(product: ProductRecord) {
    return productPayload(product, { timeZone: this.config.timeZone, emptyFields: this.config.emptyFields });
  }
}
