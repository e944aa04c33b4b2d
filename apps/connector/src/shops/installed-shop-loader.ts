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
 * logged; empty until set). A key that cannot be decrypted leaves the shop served, known to its
 * webhooks and the admin API, without a key and with the reason (`apiKeyProblem`): it shows
 * failing and the operator sets the key again. Only a row that cannot be served at all (no app
 * credentials) is logged and left out.
 */
export function installedShopLoader(
  rows: InstalledShopsRepository,
  settings: InstallConfig,
  cipher: TokenCipher,
): InstalledShopLoader {
  const told = new Set<string>();
  return async () => {
    const served: ShopConfig[] = [];
    for (const row of await rows.all()) {
      try {
        const shop = installedShopConfig(row, settings, cipher);
        const problem = shop.catalog.apiKeyProblem;
        // Logged once per shop and problem, not at every refresh.
        if (problem !== undefined && !told.has(`${row.shop} ${problem}`)) {
          told.add(`${row.shop} ${problem}`);
          logger.error(`${row.shop}: ${problem}; set it again (PUT /admin/shops/${row.shop}/catalog-key)`);
        }
        served.push(shop);
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
    catalog: { baseUrl: settings.catalogUrl ?? '', ...catalogKeyOf(row, cipher) },
  };
}

/** The row's catalog key in clear; empty, with the reason, when it cannot be decrypted. */
function catalogKeyOf(
  row: Pick<InstalledShop, 'shop' | 'catalogApiKey'>,
  cipher: TokenCipher | null,
): Pick<ShopConfig['catalog'], 'apiKey' | 'apiKeyProblem'> {
  if (row.catalogApiKey === null || cipher === null) return { apiKey: new Secret('') };
  try {
    return { apiKey: new Secret(cipher.decrypt(row.catalogApiKey)) };
  } catch (error) {
    const problem = `its catalog API key cannot be read: ${(error as Error).message}`;
    return { apiKey: new Secret(''), apiKeyProblem: problem };
  }
}
