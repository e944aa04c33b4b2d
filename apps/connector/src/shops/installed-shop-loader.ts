import { Logger } from '@nestjs/common';
import type { InstallConfig } from '../platform/config/install-config.js';
import { Secret } from '../platform/config/secret.js';
import { type ShopConfig, shopKey } from '../platform/config/shop-config.js';
import type { InstalledShop } from './installed-shop.entity.js';
import type { InstalledShopsRepository } from './installed-shops.repository.js';
import type { InstalledShopLoader } from './shops.js';
import type { TokenCipher } from './token-cipher.js';

const logger = new Logger('InstalledShops');

/**
 * Why: `Shops`' loader for the rows of `shops`. Each row is served with the connector-wide
 * settings: the app's credentials, the catalog URL, its own mapping file or
 * `CONNECTOR_DEFAULT_MAPPING_FILE`, and the catalog key the operator set (decrypted here, never
 * logged; empty until set). A row that cannot be served is logged and left out.
 */
export function installedShopLoader(
  rows: InstalledShopsRepository,
  settings: InstallConfig,
  cipher: TokenCipher,
): InstalledShopLoader {
  return async () => {
    const served: ShopConfig[] = [];
    for (const row of await rows.all()) {
      try {
        served.push(installedShopConfig(row, settings, cipher));
      } catch (error) {
        logger.error(`${row.shop} cannot be served: ${(error as Error).message}`);
      }
    }
    return served;
  };
}

/** A shop about to install the app (`CONNECTOR_SHOPIFY_INSTALLS=open`), served as its row will be. */
export function prospectiveShop(domain: string, settings: InstallConfig): ShopConfig {
  const row = { shop: domain, catalogApiKey: null, mappingFile: null };
  return installedShopConfig(row, settings, null);
}

function installedShopConfig(
  row: Pick<InstalledShop, 'shop' | 'catalogApiKey' | 'mappingFile'>,
  settings: InstallConfig,
  cipher: TokenCipher | null,
): ShopConfig {
  const { app } = settings;
  if (app === null)
    throw new Error('the app credentials (CONNECTOR_SHOPIFY_CLIENT_ID and _SECRET) are not set');
  return {
    domain: row.shop,
    key: shopKey(row.shop),
    auth: { kind: 'installed', app },
    webhookSecrets: settings.webhookSecrets,
    apiVersion: settings.apiVersion,
    mappingFile: row.mappingFile ?? settings.defaultMappingFile,
    catalog: {
      baseUrl: settings.catalogUrl ?? '',
      apiKey: new Secret(
        row.catalogApiKey === null || cipher === null ? '' : cipher.decrypt(row.catalogApiKey),
      ),
    },
  };
}
