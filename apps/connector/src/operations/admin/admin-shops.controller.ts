import { Controller, Get, UseGuards } from '@nestjs/common';
import { ShopSessionRepository } from '../../shops/shop-sessions.repository.js';
import { Shops } from '../../shops/shops.js';
import { AdminTokenGuard } from './admin-token.guard.js';
import type { ShopListDto } from './shop-list.dto.js';

/** `GET /admin/shops`: every shop, how it authenticates and where it stands (README, "Admin API"). */
@Controller('admin')
@UseGuards(AdminTokenGuard)
export class AdminShopsController {
  constructor(
    private readonly shops: Shops,
    private readonly sessions: ShopSessionRepository,
  ) {}

  @Get('shops')
  async list(): Promise<ShopListDto> {
    const rows = new Map((await this.sessions.all()).map((row) => [row.shop, row]));
    return {
      shops: this.shops.all.map((shop) => {
        const row = rows.get(shop.domain);
        return {
          shop: shop.domain,
          authKind: shop.auth.kind,
          state: row?.state ?? 'active',
          stateReason: row?.stateReason ?? null,
          tokenExpiresAt: row?.expiresAt?.toISOString() ?? null,
          scopes: row?.scope ? row.scope.split(',').map((scope) => scope.trim()) : null,
          lastRefreshAt: row?.refreshedAt?.toISOString() ?? null,
          refreshCount: row?.refreshCount ?? 0,
          subscriptions: row?.subscriptions ? row.subscriptions.split(',') : null,
          subscriptionsCheckedAt: row?.subscriptionsCheckedAt?.toISOString() ?? null,
          subscriptionsRecreated: row?.subscriptionsRecreated ?? 0,
          catalogKeySet: shop.catalog.apiKey.reveal() !== '',
        };
      }),
    };
  }
}
