import { Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { Clock } from '#lib/clock';
import { EncryptionSettings, InstallSettings } from '../platform/config/settings.js';
import { InstalledShopsRepository } from './installed-shops.repository.js';
import { ShopModesRepository } from './shop-modes.repository.js';
import { Shops } from './shops.js';
import { TokenCipher } from './token-cipher.js';

/**
 * Why: shops that installed the app themselves live in the `shops` table, so every replica
 * serves them: this reads the rows into `Shops` at boot and every `CONNECTOR_SHOPS_REFRESH_MS`
 * (an install or a key set on another replica), and after each change made here (`changed`).
 */
@Injectable()
export class InstalledShopDirectory implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('InstalledShops');
  private readonly cipher: TokenCipher;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly shops: Shops,
    private readonly rows: InstalledShopsRepository,
    private readonly settings: InstallSettings,
    private readonly clock: Clock,
    encryption: EncryptionSettings,
    private readonly modes: ShopModesRepository,
  ) {
    this.cipher = new TokenCipher(encryption.keys);
  }

  async onModuleInit(): Promise<void> {
    await this.shops.refresh();
    this.timer = setInterval(() => {
      this.shops.refresh().catch((error: unknown) => {
        this.logger.warn(`Reading the installed shops failed: ${(error as Error).message}`);
      });
    }, this.settings.refreshMs);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
  }

  /**
   * A shop installed the app (`CONNECTOR_SHOPIFY_INSTALLS=open`): its row, and every feature
   * serves it now. Its mode first (`CONNECTOR_NEW_SHOP_MODE`, kept on a reinstall), so nothing
   * is sent for it before it is known to be in shadow.
   */
  async join(domain: string): Promise<void> {
    await this.modes.setIfAbsent(domain, this.settings.newShopMode, this.now());
    await this.rows.add(domain, this.now());
    await this.shops.refresh();
  }

  /**
   * The operator set the shop's catalog API key (stored encrypted) and/or its mapping file (null:
   * the default); served at once here, within `CONNECTOR_SHOPS_REFRESH_MS` on other replicas.
   * False when the shop did not install itself (a configured shop is set in its environment).
   */
  async configure(
    domain: string,
    changes: { catalogApiKey?: string; mappingFile?: string | null },
  ): Promise<boolean> {
    const stored: { catalogApiKey?: string; mappingFile?: string | null } = {};
    if (changes.catalogApiKey !== undefined)
      stored.catalogApiKey = this.cipher.encrypt(changes.catalogApiKey);
    if (changes.mappingFile !== undefined) stored.mappingFile = changes.mappingFile;
    const found = await this.rows.update(domain, stored, this.now());
    if (found) await this.shops.refresh();
    return found;
  }

  /** `shop/redact`: the shop's row keeps only its domain (no key, no mapping), marking it redacted. */
  async forget(domain: string): Promise<number> {
    const forgotten = await this.rows.forget(domain, this.now());
    await this.shops.refresh();
    return forgotten;
  }

  private now(): Date {
    return new Date(this.clock.now());
  }
}
