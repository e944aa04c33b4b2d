import { type DynamicModule, Global, Module } from '@nestjs/common';
import type { ShopConfig } from '../platform/config/shop-config.js';
import { Shops } from './shops.js';

/** Global: every feature asks `Shops` which shops it serves. */
@Global()
@Module({})
export class ShopsModule {}

/** Why a function: the list comes from the configuration `createConnector` validated. */
export function shopsModule(shops: readonly ShopConfig[]): DynamicModule {
  return {
    module: ShopsModule,
    providers: [{ provide: Shops, useValue: new Shops(shops) }],
    exports: [Shops],
  };
}
