import { Injectable } from '@nestjs/common';
import { Clock } from '#lib/clock';
import { ShopifyAdmin } from '../../clients/shopify/shopify-admin.service.js';
import { ShopifySettings } from '../../platform/config/settings.js';
import type { AdminGraphql, GraphqlResponse, PacingOptions } from '../shopify/admin-graphql.js';

/**
 * The write-back's view of a shop's Admin GraphQL API: the connector's `@shopify/shopify-api`
 * client answering as Shopify sent it (errors, `userErrors` and cost untouched), paced on the
 * injected clock.
 */
@Injectable()
export class ShopGraphql {
  constructor(
    private readonly shopify: ShopifyAdmin,
    private readonly clock: Clock,
    private readonly settings: ShopifySettings,
  ) {}

  forShop(shop: string): AdminGraphql {
    const client = this.shopify.forShop(shop);
    return async (query, variables) => (await client.raw(query, variables)) as GraphqlResponse;
  }

  pacing(): PacingOptions {
    return {
      sleep: (ms) => this.clock.sleep(ms),
      throttleRetries: Math.max(this.settings.throttleRetries, 1),
    };
  }
}
