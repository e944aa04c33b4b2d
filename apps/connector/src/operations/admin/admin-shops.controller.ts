import { Controller, Get, HttpCode, Param, Post, Put, Req, UseGuards } from '@nestjs/common';
import type { Request } from 'express';
import { ShopMappings } from '../../mapping/shop-mappings.js';
import { SHOP_MODES, type ShopMode } from '../../platform/config/shop-mode.js';
import { ConnectorError } from '../../platform/http/connector.error.js';
import { ConnectorErrorCode } from '../../platform/http/connector-error-code.js';
import { InstalledShopDirectory } from '../../shops/installed-shop-directory.js';
import { ShopMigrationError } from '../../shops/shop-migration.error.js';
import { ShopModeRefused, ShopModes } from '../../shops/shop-modes.js';
import { ShopTokens } from '../../shops/shop-tokens.js';
import { Shops } from '../../shops/shops.js';
import { StoredSecrets } from '../../shops/stored-secrets.js';
import { readAdminJson } from './admin-json-body.js';
import { AdminTokenGuard } from './admin-token.guard.js';
import { GoLive } from './go-live.js';
import { ShopEntries } from './shop-entries.js';
import type { ReencryptDto, ShopListDto, ShopListEntryDto } from './shop-list.dto.js';

/** Longest catalog API key taken (the catalog's keys are far shorter). */
const MAX_KEY_LENGTH = 512;

/**
 * `GET /admin/shops`: every shop, how it authenticates and where it stands; `PUT
 * /admin/shops/{shop}/catalog-key` and `.../mapping`: the operator's settings of a shop that
 * installed the app (README, "Shops that install themselves"). A configured shop is set in
 * its environment: 409. `POST /admin/shops/{shop}/migrate-token`: a static shop to expiring tokens.
 * `PUT /admin/shops/{shop}/mode`: `live` or `shadow` (issue 31), any shop whose mode is not pinned.
 * `POST /admin/shops/reencrypt`: every stored secret under the newest encryption key (a rotation).
 */
@Controller('admin/shops')
@UseGuards(AdminTokenGuard)
export class AdminShopsController {
  constructor(
    private readonly entries: ShopEntries,
    private readonly shops: Shops,
    private readonly directory: InstalledShopDirectory,
    private readonly mappings: ShopMappings,
    private readonly tokens: ShopTokens,
    private readonly modes: ShopModes,
    private readonly goLive: GoLive,
    private readonly secrets: StoredSecrets,
  ) {}

  @Get()
  list(): Promise<ShopListDto> {
    return this.entries.list();
  }

  /**
   * Re-encrypts under the first of `CONNECTOR_ENCRYPTION_KEYS` every stored secret an older
   * listed key holds (each replica also does at boot); answers what is left under old keys.
   */
  @Post('reencrypt')
  @HttpCode(200)
  async reencrypt(): Promise<ReencryptDto> {
    const outcome = await this.secrets.reencrypt();
    return { ...outcome };
  }

  /** `{"apiKey": "..."}`: the catalog key the shop syncs with (stored encrypted; never shown again). */
  @Put(':shop/catalog-key')
  async setCatalogKey(@Param('shop') domain: string, @Req() req: Request): Promise<ShopListEntryDto> {
    const shop = this.installedShop(domain);
    const body = await readAdminJson(req);
    const apiKey = body.apiKey;
    if (typeof apiKey !== 'string' || !/^\S+$/.test(apiKey) || apiKey.length > MAX_KEY_LENGTH) {
      throw new ConnectorError(
        ConnectorErrorCode.BAD_REQUEST,
        `apiKey must be the catalog API key: a string without spaces, at most ${MAX_KEY_LENGTH} characters.`,
        { field: 'apiKey' },
      );
    }
    await this.directory.configure(shop, { catalogApiKey: apiKey });
    return this.entryOf(shop);
  }

  /** `{"file": "/path/mapping.yaml"}` (null: `CONNECTOR_DEFAULT_MAPPING_FILE`): checked before it is kept. */
  @Put(':shop/mapping')
  async setMapping(@Param('shop') domain: string, @Req() req: Request): Promise<ShopListEntryDto> {
    const shop = this.installedShop(domain);
    const file = (await readAdminJson(req)).file;
    if (file !== null && (typeof file !== 'string' || file.trim() === '')) {
      throw new ConnectorError(
        ConnectorErrorCode.BAD_REQUEST,
        'file must be the path of a mapping file on the connector, or null for the default.',
        { field: 'file' },
      );
    }
    const served = this.shops.find(shop);
    if (served !== undefined && typeof file === 'string') {
      const state = await this.mappings.adopt({ ...served, mappingFile: file });
      if (state.status === 'invalid') {
        // The shop keeps the file it had.
        await this.mappings.adopt(served);
        throw new ConnectorError(ConnectorErrorCode.BAD_REQUEST, state.error.message, { field: 'file' });
      }
    }
    await this.directory.configure(shop, { mappingFile: file });
    return this.entryOf(shop);
  }

  /**
   * `{"mode": "live"|"shadow"}`: 404 unknown shop, 409 `mode_pinned` when its configuration pins
   * the mode. From shadow to live: every product with planned writes is synced again (`GoLive`).
   */
  @Put(':shop/mode')
  async setMode(@Param('shop') domain: string, @Req() req: Request): Promise<ShopListEntryDto> {
    const wanted = domain.toLowerCase();
    const mode = (await readAdminJson(req)).mode;
    if (typeof mode !== 'string' || !(SHOP_MODES as readonly string[]).includes(mode)) {
      throw new ConnectorError(
        ConnectorErrorCode.BAD_REQUEST,
        `mode must be one of ${SHOP_MODES.join(', ')}.`,
        {
          field: 'mode',
        },
      );
    }
    try {
      const before = await this.modes.set(wanted, mode as ShopMode);
      if (before === 'shadow' && mode === 'live') await this.goLive.start(wanted);
    } catch (error) {
      if (!(error instanceof ShopModeRefused)) throw error;
      const code =
        error.problem === 'unknown' ? ConnectorErrorCode.NOT_FOUND : ConnectorErrorCode.MODE_PINNED;
      throw new ConnectorError(code, error.message, { shop: wanted });
    }
    return this.entryOf(wanted);
  }

  /**
   * A static shop's legacy non-expiring token exchanged for expiring ones (`auth.migrateToExpiringToken`):
   * 409 `already_migrated` (or not static), 400 without the app's credentials, 409
   * `migration_refused` when Shopify refuses the token, 503 `shopify_unavailable`.
   */
  @Post(':shop/migrate-token')
  @HttpCode(200)
  async migrateToken(@Param('shop') domain: string): Promise<ShopListEntryDto> {
    const wanted = domain.toLowerCase();
    if (this.shops.find(wanted) === undefined) {
      throw new ConnectorError(ConnectorErrorCode.NOT_FOUND, `No shop ${wanted}.`, { shop: wanted });
    }
    try {
      await this.tokens.migrate(wanted);
    } catch (error) {
      if (!(error instanceof ShopMigrationError)) throw error;
      const code = {
        conflict: ConnectorErrorCode.ALREADY_MIGRATED,
        invalid: ConnectorErrorCode.BAD_REQUEST,
        refused: ConnectorErrorCode.MIGRATION_REFUSED,
        unavailable: ConnectorErrorCode.SHOPIFY_UNAVAILABLE,
      }[error.problem];
      throw new ConnectorError(code, error.message, { shop: wanted });
    }
    return this.entryOf(wanted);
  }

  /** The domain of a shop that installed the app; 404 unknown, 409 configured. */
  private installedShop(domain: string): string {
    const wanted = domain.toLowerCase();
    const shop = this.shops.find(wanted);
    if (shop === undefined) {
      throw new ConnectorError(ConnectorErrorCode.NOT_FOUND, `No shop ${wanted}.`, { shop: wanted });
    }
    if (this.shops.configured.includes(shop)) {
      throw new ConnectorError(
        ConnectorErrorCode.SHOP_CONFIGURED,
        `${wanted} is configured in the environment (CONNECTOR_SHOP_${shop.key}_*): change it there.`,
        { shop: wanted },
      );
    }
    return wanted;
  }

  private async entryOf(shop: string): Promise<ShopListEntryDto> {
    const entry = await this.entries.one(shop);
    if (entry === undefined) throw new ConnectorError(ConnectorErrorCode.NOT_FOUND, `No shop ${shop}.`);
    return entry;
  }
}
