import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  HttpStatus,
  Param,
  Post,
  Put,
  Query,
  UseGuards,
} from '@nestjs/common';
import { isShopDomain } from '../config/shopify-sandbox.config.js';
import { ShopifyErrorCode, ShopifySandboxError } from '../http/shopify-sandbox.error.js';
import { IMAGE_FAULTS, type ImageFault } from '../images/image.store.js';
import { fileKeyOf, shopOfImageUrl } from '../images/image-ingest.service.js';
import { isObject } from '../merchant/product-input.js';
import type { Shop } from '../shops/shop.js';
import { ShopRegistry } from '../shops/shop-registry.service.js';
import { parseDeliveryFaults } from '../webhooks/delivery-faults.js';
import { WebhookDeliveryService } from '../webhooks/webhook-delivery.service.js';
import { ControlTokenGuard } from './control-token.guard.js';

/** The sandbox control API, under `/sandbox`: shops, logs, faults. Documented in the README. */
@Controller('sandbox')
@UseGuards(ControlTokenGuard)
export class ControlController {
  constructor(
    private readonly shops: ShopRegistry,
    private readonly deliveries: WebhookDeliveryService,
  ) {}

  @Get('shops')
  listShops() {
    return {
      shops: this.shops.all().map((shop) => ({
        domain: shop.domain,
        products: shop.products.size,
        webhookSubscriptions: shop.subscriptions.list().length,
      })),
    };
  }

  @Post('shops')
  @HttpCode(HttpStatus.CREATED)
  createShop(@Body() body: unknown) {
    const domain = isObject(body) ? body.domain : undefined;
    const accessToken = isObject(body) ? body.accessToken : undefined;
    if (
      typeof domain !== 'string' ||
      !isShopDomain(domain) ||
      typeof accessToken !== 'string' ||
      accessToken === ''
    ) {
      throw badRequest('body must be {"domain": "<name>.myshopify.com", "accessToken": "<token>"}');
    }
    return { domain: this.shops.create({ domain, accessToken }).domain };
  }

  @Get('shops/:shop/deliveries')
  readDeliveries(
    @Param('shop') domain: string,
    @Query('topic') topic?: string,
    @Query('state') state?: string,
  ) {
    const deliveries = this.shop(domain)
      .deliveries.list()
      .filter((d) => (!topic || d.topic === topic) && (!state || d.state === state));
    return { deliveries };
  }

  @Delete('shops/:shop/deliveries')
  clearDeliveries(@Param('shop') domain: string) {
    this.shop(domain).deliveries.clear();
    return {};
  }

  /** Sends any delivery held by the reorder fault, then waits (up to `timeoutMs`) for all to settle. */
  @Post('shops/:shop/deliveries/flush')
  @HttpCode(HttpStatus.OK)
  async flushDeliveries(@Param('shop') domain: string, @Query('timeoutMs') timeoutMs?: string) {
    this.deliveries.flushHeld(this.shop(domain));
    const limit = Math.min(120_000, Number(timeoutMs ?? 30_000) || 30_000);
    let timer: NodeJS.Timeout | undefined;
    const settled = await Promise.race([
      this.deliveries.idle().then(() => true),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), limit);
      }),
    ]);
    clearTimeout(timer);
    return { settled };
  }

  @Get('shops/:shop/admin-requests')
  readAdminRequests(
    @Param('shop') domain: string,
    @Query('api') api?: string,
    @Query('operationType') operationType?: string,
  ) {
    const requests = this.shop(domain)
      .adminRequests.list()
      .filter((r) => (!api || r.api === api) && (!operationType || r.operationType === operationType));
    return { requests };
  }

  @Delete('shops/:shop/admin-requests')
  clearAdminRequests(@Param('shop') domain: string) {
    this.shop(domain).adminRequests.clear();
    return {};
  }

  @Get('shops/:shop/delivery-faults')
  readFaults(@Param('shop') domain: string) {
    return { faults: this.shop(domain).deliveryFaults };
  }

  /** Merges the given faults onto the current ones and restarts the seeded generator. */
  @Put('shops/:shop/delivery-faults')
  setFaults(@Param('shop') domain: string, @Body() body: unknown) {
    const shop = this.shop(domain);
    const parsed = parseDeliveryFaults(body, shop.deliveryFaults);
    if ('problems' in parsed) throw badRequest(parsed.problems.join('; '));
    shop.deliveryFaults = parsed.faults;
    this.deliveries.resetRandom(shop);
    return { faults: shop.deliveryFaults };
  }

  /** `{src, fault: "404" | "not-an-image" | null}`: breaks (or mends) one image URL. */
  @Put('shops/:shop/image-faults')
  setImageFault(@Param('shop') domain: string, @Body() body: unknown) {
    const shop = this.shop(domain);
    const src = isObject(body) ? body.src : undefined;
    const fault = isObject(body) ? body.fault : undefined;
    if (typeof src !== 'string' || !(fault === null || IMAGE_FAULTS.includes(fault as ImageFault))) {
      throw badRequest('body must be {"src": "<image url>", "fault": "404" | "not-an-image" | null}');
    }
    const key = fileKeyOf(src);
    if (
      !key ||
      shopOfImageUrl(src) !== shop.domain ||
      !shop.images.setFault(key, fault as ImageFault | null)
    ) {
      throw new ShopifySandboxError(ShopifyErrorCode.NOT_FOUND, `No image of ${shop.domain} at ${src}`);
    }
    return { src, fault };
  }

  @Get('shops/:shop/cost-bucket')
  readBucket(@Param('shop') domain: string) {
    return { throttleStatus: this.shop(domain).costBucket.status() };
  }

  /** `{currentlyAvailable}`: sets the bucket's level, e.g. to 0 to test throttling. */
  @Put('shops/:shop/cost-bucket')
  setBucket(@Param('shop') domain: string, @Body() body: unknown) {
    const shop = this.shop(domain);
    const level = isObject(body) ? body.currentlyAvailable : undefined;
    if (typeof level !== 'number' || level < 0)
      throw badRequest('body must be {"currentlyAvailable": <points>}');
    shop.costBucket.setAvailable(level);
    return { throttleStatus: shop.costBucket.status() };
  }

  private shop(domain: string): Shop {
    const shop = this.shops.byDomain(domain);
    if (!shop) throw new ShopifySandboxError(ShopifyErrorCode.NOT_FOUND, `Unknown shop ${domain}`);
    return shop;
  }
}

function badRequest(message: string): ShopifySandboxError {
  return ShopifySandboxError.badRequest(message);
}
