import {
  Body,
  Controller,
  Get,
  HttpCode,
  HttpStatus,
  Inject,
  Post,
  UseGuards,
  UseInterceptors,
} from '@nestjs/common';
import { toGid } from '../common/gid.js';
import { restTime } from '../common/shop-time.js';
import type { ShopifySandboxConfig } from '../config/shopify-sandbox.config.js';
import { ShopifySandboxError } from '../http/shopify-sandbox.error.js';
import { SANDBOX_CONFIG } from '../shopify-sandbox.tokens.js';
import { AdminAccessGuard, CurrentShop } from '../shops/admin-access.guard.js';
import { RestRequestLogInterceptor } from '../shops/rest-request-log.interceptor.js';
import type { Shop } from '../shops/shop.js';
import { ProductEditor } from './product-editor.service.js';
import { isObject } from './product-input.js';

/**
 * Inventory, as Shopify's REST `inventory_levels` endpoints. Each shop has one location.
 * A change fires `products/update`, as Shopify does (the topic is noisy).
 */
@Controller('admin/api/:version')
@UseGuards(AdminAccessGuard)
@UseInterceptors(RestRequestLogInterceptor)
export class MerchantInventoryController {
  constructor(
    private readonly editor: ProductEditor,
    @Inject(SANDBOX_CONFIG) private readonly config: ShopifySandboxConfig,
  ) {}

  @Get('locations.json')
  locations(@CurrentShop() shop: Shop) {
    return {
      locations: [
        {
          id: shop.locationId,
          name: 'Sandbox warehouse',
          active: true,
          admin_graphql_api_id: toGid('Location', shop.locationId),
        },
      ],
    };
  }

  /** `{location_id?, inventory_item_id, available}`: sets the quantity. */
  @Post('inventory_levels/set.json')
  @HttpCode(HttpStatus.OK)
  set(@CurrentShop() shop: Shop, @Body() body: unknown) {
    const { itemId, amount } = this.read(shop, body, 'available');
    return this.apply(shop, itemId, () => amount);
  }

  /** `{location_id?, inventory_item_id, available_adjustment}`: adds to the quantity. */
  @Post('inventory_levels/adjust.json')
  @HttpCode(HttpStatus.OK)
  adjust(@CurrentShop() shop: Shop, @Body() body: unknown) {
    const { itemId, amount } = this.read(shop, body, 'available_adjustment');
    return this.apply(shop, itemId, (current) => current + amount);
  }

  private apply(shop: Shop, itemId: number, next: (current: number) => number) {
    const current = shop.products.findByInventoryItem(itemId)?.variant.inventoryQuantity;
    const variant = current === undefined ? undefined : this.editor.setInventory(shop, itemId, next(current));
    if (!variant) {
      throw ShopifySandboxError.unprocessable({ inventory_item_id: ['not found'] });
    }
    return {
      inventory_level: {
        inventory_item_id: itemId,
        location_id: shop.locationId,
        available: variant.inventoryQuantity,
        updated_at: restTime(variant.updatedAt, this.config.timeZone),
        admin_graphql_api_id: `${toGid('InventoryLevel', itemId)}?inventory_item_id=${itemId}`,
      },
    };
  }

  private read(shop: Shop, body: unknown, amountField: string): { itemId: number; amount: number } {
    const errors: Record<string, string[]> = {};
    const input = isObject(body) ? body : {};
    const itemId = input.inventory_item_id;
    const amount = input[amountField];
    const location = input.location_id;
    if (!Number.isSafeInteger(itemId)) errors.inventory_item_id = ['must be an inventory item id'];
    if (!Number.isSafeInteger(amount)) errors[amountField] = ['must be an integer'];
    if (location !== undefined && location !== shop.locationId) {
      errors.location_id = [`must be this shop's location (${shop.locationId}, see locations.json)`];
    }
    if (Object.keys(errors).length > 0) throw ShopifySandboxError.unprocessable(errors);
    return { itemId: itemId as number, amount: amount as number };
  }
}
