import { Body, Controller, HttpCode, HttpStatus, Post, Req, Res, UseGuards } from '@nestjs/common';
import type { Response } from 'express';
import { AdminAccessGuard, CurrentShop, type ShopRequest } from '../shops/admin-access.guard.js';
import type { Shop } from '../shops/shop.js';
import { AdminGraphqlService } from './admin-graphql.service.js';

/** `POST /admin/api/{version}/graphql.json`, authenticated by `X-Shopify-Access-Token`. */
@Controller('admin/api/:version')
@UseGuards(AdminAccessGuard)
export class AdminGraphqlController {
  constructor(private readonly graphql: AdminGraphqlService) {}

  @Post('graphql.json')
  @HttpCode(HttpStatus.OK)
  async query(
    @CurrentShop() shop: Shop,
    @Body() body: unknown,
    @Req() request: ShopRequest,
    @Res({ passthrough: true }) response: Response,
  ) {
    const reply = await this.graphql.handle(shop, request.path, body, request.clientId, request.scopes);
    response.status(reply.status);
    return reply.body;
  }
}
