import { type DynamicModule, Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { ShopConfig } from '../platform/config/shop-config.js';
import { ShopFetchRoutes } from './shop-fetch-routes.js';
import { ShopSession } from './shop-session.entity.js';
import { ShopSessionRepository } from './shop-sessions.repository.js';
import { ShopTokenSource } from './shop-token-source.js';
import { ShopTokens } from './shop-tokens.js';
import { Shops } from './shops.js';
import { TokenGrants } from './token-grants.js';

/** Global: every feature asks `Shops` which shops it serves, and `ShopTokens` for their tokens. */
@Global()
@Module({})
export class ShopsModule {}

/** Why a function: the list comes from the configuration `createConnector` validated. */
export function shopsModule(shops: readonly ShopConfig[]): DynamicModule {
  const exported = [Shops, ShopTokens, ShopTokenSource, ShopSessionRepository, ShopFetchRoutes, TokenGrants];
  return {
    module: ShopsModule,
    imports: [TypeOrmModule.forFeature([ShopSession])],
    providers: [
      { provide: Shops, useValue: new Shops(shops) },
      ShopTokens,
      { provide: ShopTokenSource, useExisting: ShopTokens },
      ShopSessionRepository,
      ShopFetchRoutes,
      TokenGrants,
    ],
    exports: exported,
  };
}
