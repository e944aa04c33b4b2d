import { Injectable, type OnModuleInit } from '@nestjs/common';
import { ShopDataRegistry } from '../platform/reporting/shop-data-registry.service.js';
import { InboxRepository } from './inbox.repository.js';

/** Why: a redacted shop's deliveries go with its other data (`shop/redact`). */
@Injectable()
export class InboxShopData implements OnModuleInit {
  constructor(
    private readonly registry: ShopDataRegistry,
    private readonly inbox: InboxRepository,
  ) {}

  onModuleInit(): void {
    this.registry.register({
      tables: ['inbox'],
      purge: async (shop) => this.inbox.purgeShop(shop),
    });
  }
}
