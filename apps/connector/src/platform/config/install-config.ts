import type { ApiVersion } from '@shopify/shopify-api';
import type { EnvReader } from '#lib/config';
import type { Secret } from './secret.js';
import type { AppCredentials } from './shop-auth-config.js';
import type { ShopDefaults } from './shop-config.js';
import { SHOP_MODES, type ShopMode } from './shop-mode.js';

/** Who may install the app (`CONNECTOR_SHOPIFY_INSTALLS`). */
export const INSTALL_POLICIES = ['configured', 'open'] as const;

/**
 * How shops that install the app themselves are served (docs/shop-auth.md, "Shops that install
 * themselves"). `open`: any `*.myshopify.com` shop may install through `/auth/shopify`; it joins
 * the connector as a row of the `shops` table with these settings. `configured`: only shops in
 * `CONNECTOR_SHOPS` with `AUTH=installed`.
 */
export interface InstallConfig {
  open: boolean;
  /** The app's credentials (`CONNECTOR_SHOPIFY_CLIENT_ID`, `..._CLIENT_SECRET`); null when unset. */
  app: AppCredentials | null;
  /** Webhook secrets of installed shops: `CONNECTOR_WEBHOOK_SECRETS`, else the app's client secret. */
  webhookSecrets: Secret[];
  apiVersion: ApiVersion;
  /** `CONNECTOR_CATALOG_URL`: the catalog an installed shop syncs into (its key is set by the operator). */
  catalogUrl: string | null;
  /** `CONNECTOR_DEFAULT_MAPPING_FILE`: an installed shop's mapping until the operator gives it its own. */
  defaultMappingFile: string | null;
  /** `CONNECTOR_SHOPS_REFRESH_MS`: how often each replica reads the `shops` table again. */
  refreshMs: number;
  /** `CONNECTOR_NEW_SHOP_MODE` (`shadow` by default): the mode a shop starts in when it installs the app. */
  newShopMode: ShopMode;
}

/**
 * `CONNECTOR_SHOPIFY_INSTALLS` (`configured` by default) and `CONNECTOR_DEFAULT_MAPPING_FILE`;
 * `open` needs the app's credentials, `CONNECTOR_PUBLIC_URL` and `CONNECTOR_CATALOG_URL` (the
 * boot stops naming what is missing).
 */
export function readInstalls(
  read: EnvReader,
  defaults: ShopDefaults,
  publicUrl: string | null,
): InstallConfig {
  const open = read.oneOf('CONNECTOR_SHOPIFY_INSTALLS', INSTALL_POLICIES, 'configured') === 'open';
  const { clientId, clientSecret } = defaults.app;
  const app = clientId !== undefined && clientSecret !== undefined ? { clientId, clientSecret } : null;
  if (open) {
    const missing = [
      app === null ? 'CONNECTOR_SHOPIFY_CLIENT_ID and CONNECTOR_SHOPIFY_CLIENT_SECRET' : null,
      publicUrl === null ? 'CONNECTOR_PUBLIC_URL' : null,
      defaults.catalogUrl === undefined ? 'CONNECTOR_CATALOG_URL' : null,
    ].filter((name) => name !== null);
    if (missing.length > 0) {
      read.problems.push(`CONNECTOR_SHOPIFY_INSTALLS=open needs ${missing.join(', ')}`);
    }
  }
  return {
    open,
    app,
    webhookSecrets: defaults.secrets ?? (app === null ? [] : [app.clientSecret]),
    apiVersion: defaults.apiVersion as ApiVersion,
    catalogUrl: defaults.catalogUrl?.replace(/\/+$/, '') ?? null,
    defaultMappingFile: read.optionalString('CONNECTOR_DEFAULT_MAPPING_FILE') ?? null,
    refreshMs: read.int('CONNECTOR_SHOPS_REFRESH_MS', 10_000, { min: 100 }),
    newShopMode: read.oneOf('CONNECTOR_NEW_SHOP_MODE', SHOP_MODES, 'shadow'),
  };
}
