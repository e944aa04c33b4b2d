import { type DynamicModule, Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Clock } from '#lib/clock';
import { EncryptionSettings, InstallSettings } from '../platform/config/settings.js';
import type { ShopConfig } from '../platform/config/shop-config.js';
import { InstalledShop } from './installed-shop.entity.js';
import { InstalledShopDirectory } from './installed-shop-directory.service.js';
import { installedShopLoader } from './installed-shop-loader.js';
import { InstalledShopsRepository } from './installed-shops.repository.js';
import { ShopFetchRoutes } from './shop-fetch-routes.service.js';
import { ShopModeRow } from './shop-mode.entity.js';
import { ShopModesRepository } from './shop-modes.repository.js';
import { ShopModes } from './shop-modes.service.js';
import { ShopSession } from './shop-session.entity.js';
import { ShopSessionRepository } from './shop-sessions.repository.js';
import { ShopTokenSource } from './shop-token-source.js';
import { ShopTokens } from './shop-tokens.service.js';
import { ShopTurns } from './shop-turns.service.js';
import { Shops } from './shops.js';
import { StoredSecrets } from './stored-secrets.service.js';
import { TokenCipher } from './token-cipher.js';
import { TokenGrants } from './token-grants.service.js';

/** Global: every feature asks `Shops` which shops it serves, and `ShopTokens` for their tokens. */
@Global()
@Module({})
export class ShopsModule {}

/** Why a function: the configured list comes from the configuration `createConnector` validated. */
export function shopsModule(shops: readonly ShopConfig[]): DynamicModule {
  const exported = [
    Shops,
    ShopTokens,
    ShopTokenSource,
    ShopSessionRepository,
    ShopFetchRoutes,
    TokenGrants,
    InstalledShopDirectory,
    ShopModes,
    StoredSecrets,
    ShopTurns,
  ];
  return {
    module: ShopsModule,
    imports: [TypeOrmModule.forFeature([ShopSession, InstalledShop, ShopModeRow])],
    providers: [
      {
        provide: Shops,
        inject: [InstalledShopsRepository, InstallSettings, EncryptionSettings, Clock],
        useFactory: (
          rows: InstalledShopsRepository,
          settings: InstallSettings,
          encryption: EncryptionSettings,
          clock: Clock,
        ) =>
          new Shops(
            shops,
            installedShopLoader(rows, settings, new TokenCipher(encryption.keys)),
            () => clock.now(),
            (ms) => clock.sleep(ms),
          ),
      },
      InstalledShopsRepository,
      StoredSecrets,
      InstalledShopDirectory,
      ShopModesRepository,
      ShopModes,
      ShopTokens,
      { provide: ShopTokenSource, useExisting: ShopTokens },
      ShopSessionRepository,
      ShopFetchRoutes,
      TokenGrants,
      ShopTurns,
    ],
    exports: exported,
  };
}
