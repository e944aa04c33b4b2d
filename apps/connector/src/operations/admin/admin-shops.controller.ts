import {
  Body,
  Controller,
  Get,
  HttpCode,
  Param,
  Post,
  Put,
  Query,
  UseGuards,
  UseInterceptors,
} from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ShopMappings } from '../../mapping/shop-mappings.service.js';
import { ConnectorError } from '../../platform/http/connector.error.js';
import { ApiConnectorErrors } from '../../platform/http/connector-error.dto.js';
import { ConnectorErrorCode } from '../../platform/http/connector-error-code.js';
import { InstalledShopDirectory } from '../../shops/installed-shop-directory.service.js';
import { ShopMigrationError } from '../../shops/shop-migration.error.js';
import { ShopModeRefused, ShopModes } from '../../shops/shop-modes.service.js';
import { ShopTokens } from '../../shops/shop-tokens.service.js';
import { Shops } from '../../shops/shops.js';
import { StoredSecrets } from '../../shops/stored-secrets.service.js';
import { AdminJsonBodyInterceptor } from './admin-json-body.interceptor.js';
import { AdminTokenGuard } from './admin-token.guard.js';
import { GoLive } from './go-live.service.js';
import { ShopEntries } from './shop-entries.service.js';
import { ReencryptDto, ShopListDto, ShopListEntryDto } from './shop-list.dto.js';
import { shopPage } from './shop-page.js';
import { AUTH_STATES_WORST_FIRST, ShopListQuery } from './shop-page-query.dto.js';
import { CatalogKeyBody, MappingFileBody, ShopModeBody } from './shop-settings.dto.js';

const SHOP = ApiParam({ name: 'shop', description: 'The shop (`<name>.myshopify.com`).' });

/**
 * `GET /admin/shops`: every shop, how it authenticates and where it stands; `PUT
 * /admin/shops/{shop}/catalog-key` and `.../mapping`: the operator's settings of a shop that
 * installed the app (README, "Shops that install themselves"). A configured shop is set in
 * its environment: 409. `POST /admin/shops/{shop}/migrate-token`: a static shop to expiring tokens.
 * `PUT /admin/shops/{shop}/mode`: `live` or `shadow` (issue 31), any shop whose mode is not pinned.
 * `POST /admin/shops/reencrypt`: every stored secret under the newest encryption key (a rotation).
 */
@ApiTags('admin')
@ApiBearerAuth('adminToken')
@ApiConnectorErrors(401, 429, 503)
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
  @ApiOperation({
    operationId: 'listShops',
    summary:
      "Every shop: how it authenticates, its state, its token expiry and scopes, its catalog key, the operator's next step",
    description:
      'Shops worst auth state first (needs_reauth, uninstalled, redacted, active; then by domain), 50 a page by default; `state` and `q` filter them, `stateCounts` counts every shop.',
  })
  @ApiOkResponse({ type: ShopListDto })
  @ApiConnectorErrors(400)
  async list(@Query() query: ShopListQuery): Promise<ShopListDto> {
    const { shops, encryption } = await this.entries.list();
    const paged = shopPage(shops, AUTH_STATES_WORST_FIRST, query);
    return {
      shops: paged.shops,
      total: paged.total,
      offset: paged.offset,
      limit: paged.limit,
      stateCounts: paged.counts,
      encryption,
    };
  }

  /**
   * Re-encrypts under the first of `CONNECTOR_ENCRYPTION_KEYS` every stored secret an older
   * listed key holds (each replica also does at boot); answers what is left under old keys.
   */
  @Post('reencrypt')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'reencryptShopSecrets',
    summary:
      'Re-encrypt under the first of CONNECTOR_ENCRYPTION_KEYS every stored secret (catalog keys, token pairs) an older listed key holds',
    description:
      'Each replica also does it at boot. The answer counts what this pass re-encrypted and what is left: the old key can be dropped once `secretsUnderOldKeys` is 0.',
  })
  @ApiOkResponse({ type: ReencryptDto })
  async reencrypt(): Promise<ReencryptDto> {
    const outcome = await this.secrets.reencrypt();
    return { ...outcome };
  }

  /** `{"apiKey": "..."}`: the catalog key the shop syncs with (stored encrypted; never shown again). */
  @Put(':shop/catalog-key')
  @UseInterceptors(AdminJsonBodyInterceptor)
  @ApiOperation({
    operationId: 'setShopCatalogKey',
    summary:
      'Set the catalog API key of a shop that installed the app (stored encrypted, never shown); its waiting syncs resume',
    description: '404: no such shop; 409 shop_configured: the shop is configured in the environment.',
  })
  @SHOP
  @ApiOkResponse({ type: ShopListEntryDto })
  @ApiConnectorErrors(400, 404, 409, 413)
  async setCatalogKey(
    @Param('shop') domain: string,
    @Body() body: CatalogKeyBody,
  ): Promise<ShopListEntryDto> {
    const shop = this.installedShop(domain);
    await this.directory.configure(shop, { catalogApiKey: body.apiKey });
    return this.entryOf(shop);
  }

  /** `{"file": "/path/mapping.yaml"}` (null: `CONNECTOR_DEFAULT_MAPPING_FILE`): checked before it is kept. */
  @Put(':shop/mapping')
  @UseInterceptors(AdminJsonBodyInterceptor)
  @ApiOperation({
    operationId: 'setShopMapping',
    summary:
      'Set the mapping file of a shop that installed the app (checked before it is kept), or null for the default',
    description: '400: the file cannot be read or is refused (each problem named).',
  })
  @SHOP
  @ApiOkResponse({ type: ShopListEntryDto })
  @ApiConnectorErrors(400, 404, 409, 413)
  async setMapping(@Param('shop') domain: string, @Body() body: MappingFileBody): Promise<ShopListEntryDto> {
    const shop = this.installedShop(domain);
    const file = body.file;
    const served = this.shops.find(shop);
    if (served !== undefined && typeof file === 'string') {
      const state = await this.mappings.adopt({ ...served, mappingFile: file });
      if (state.status === 'invalid') {
        // The shop keeps the file it had.
        await this.mappings.adopt(served);
        throw new ConnectorError(ConnectorErrorCode.BAD_REQUEST, state.error.message, { parameter: 'file' });
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
  @UseInterceptors(AdminJsonBodyInterceptor)
  @ApiOperation({
    operationId: 'setShopMode',
    summary:
      'Switch a shop between live (its writes are sent) and shadow (they are recorded as planned writes instead)',
    description:
      'From shadow to live: the planned writes are cleared and every product they were for is synced again (reason `go-live`). 404: no such shop; 409 mode_pinned: `CONNECTOR_SHOP_<KEY>_MODE` pins the mode.',
  })
  @SHOP
  @ApiOkResponse({ type: ShopListEntryDto })
  @ApiConnectorErrors(400, 404, 409, 413)
  async setMode(@Param('shop') domain: string, @Body() body: ShopModeBody): Promise<ShopListEntryDto> {
    const wanted = domain.toLowerCase();
    const mode = body.mode;
    try {
      const before = await this.modes.set(wanted, mode);
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
  @ApiOperation({
    operationId: 'migrateShopToken',
    summary:
      "Exchange a static shop's legacy non-expiring token for expiring ones (auth.migrateToExpiringToken); Shopify revokes the old token",
    description:
      "400: the app's credentials are not set; 409 already_migrated (or not static), 409 migration_refused: Shopify refused the token; 503 shopify_unavailable.",
  })
  @SHOP
  @ApiOkResponse({ type: ShopListEntryDto })
  @ApiConnectorErrors(400, 404, 409)
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
