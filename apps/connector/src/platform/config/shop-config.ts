import { ApiVersion } from '@shopify/shopify-api';
import type { Env, EnvReader } from '#lib/config';
import type { Secret } from './secret.js';
import { readSecret, readSecretList, type SecretFileReader } from './secret-reader.js';
import {
  type AppCredentialDefaults,
  readAppCredentialDefaults,
  readShopAuth,
  type ShopAuth,
} from './shop-auth-config.js';
import { SHOP_MODES, type ShopMode } from './shop-mode.js';

/** The Admin API version the connector's GraphQL documents are written and validated against. */
export const DEFAULT_API_VERSION = ApiVersion.July26;

/** One Shopify shop the connector serves, and the catalog account it syncs into. */
export interface ShopConfig {
  /** `<name>.myshopify.com`, as Shopify sends it in `X-Shopify-Shop-Domain`. */
  domain: string;
  /** The shop's part of its variables' names: `CONNECTOR_SHOP_<KEY>_...`. */
  key: string;
  /** How the connector gets the shop's Admin API token: a static one, or its app's grants. */
  auth: ShopAuth;
  /**
   * Webhook signing secrets; the first is current, the others are still accepted (rotation).
   * Unset: the app's client secret (Shopify signs an app's webhooks with it).
   */
  webhookSecrets: Secret[];
  /** Admin API version used for every call and subscription. */
  apiVersion: ApiVersion;
  /** The shop's mapping file (Shopify fields to catalog attributes), read by the sync engine. */
  mappingFile: string | null;
  /**
   * `CONNECTOR_SHOP_<KEY>_MODE`: the mode configuration pins (the admin API cannot switch it);
   * unset: the shop's stored mode, `live` for a configured shop without one.
   */
  modePin?: ShopMode;
  catalog: {
    /** Catalog service address, without `/v1`. */
    baseUrl: string;
    /** The catalog account's API key; shops sharing a key share its rate budget. */
    apiKey: Secret;
    /**
     * Why a shop that installed the app has no key although one is stored: it cannot be
     * decrypted (its key left `CONNECTOR_ENCRYPTION_KEYS`). Its syncs wait; setting it again repairs it.
     */
    apiKeyProblem?: string;
  };
}

/** A shop host as Shopify names it: `<name>.myshopify.com`. */
export const SHOP_DOMAIN = /^[a-z0-9][a-z0-9-]*\.myshopify\.com$/;
const API_VERSIONS = Object.values(ApiVersion) as string[];

/** `acme-eu.myshopify.com` -> `ACME_EU`: the shop's part of its variable names. */
export function shopKey(domain: string): string {
  return domain
    .replace(/\.myshopify\.com$/, '')
    .replaceAll('-', '_')
    .toUpperCase();
}

/**
 * Reads `CONNECTOR_SHOPS` (comma-separated `*.myshopify.com` domains) and each shop's
 * `CONNECTOR_SHOP_<KEY>_*` variables, falling back to the connector-wide defaults
 * (`CONNECTOR_WEBHOOK_SECRETS`, `CONNECTOR_CATALOG_URL`, `CONNECTOR_CATALOG_API_KEY`, ...).
 */
export function readShops(
  read: EnvReader,
  env: Env,
  readFile: SecretFileReader,
  defaults: ShopDefaults,
): ShopConfig[] {
  const list = read.string('CONNECTOR_SHOPS', '');
  if (list === '') return [];
  const domains = list
    .split(',')
    .map((part) => part.trim().toLowerCase())
    .filter((part) => part !== '');
  const bad = domains.filter((domain) => !SHOP_DOMAIN.test(domain));
  if (bad.length > 0) {
    read.problems.push(`CONNECTOR_SHOPS must list <name>.myshopify.com domains, got "${bad.join('", "')}"`);
    return [];
  }
  const keys = new Map<string, string>();
  for (const domain of domains) {
    const key = shopKey(domain);
    const other = keys.get(key);
    if (other !== undefined) {
      read.problems.push(
        other === domain
          ? `CONNECTOR_SHOPS lists ${domain} twice`
          : `CONNECTOR_SHOPS: ${other} and ${domain} would share the variables CONNECTOR_SHOP_${key}_*`,
      );
      return [];
    }
    keys.set(key, domain);
  }
  return domains.map((domain) => readShop(read, env, readFile, domain, defaults));
}

/** The connector-wide settings every shop falls back to (and that shops installing the app use). */
export interface ShopDefaults {
  secrets: Secret[] | undefined;
  apiVersion: string;
  catalogUrl: string | undefined;
  catalogKey: Secret | undefined;
  app: AppCredentialDefaults;
}

/**
 * `CONNECTOR_WEBHOOK_SECRETS`, `CONNECTOR_SHOPIFY_API_VERSION`, `CONNECTOR_CATALOG_URL`,
 * `CONNECTOR_CATALOG_API_KEY` and the app's credentials: read once, for `readShops` and `readInstalls`.
 */
export function readShopDefaults(read: EnvReader, env: Env, readFile: SecretFileReader): ShopDefaults {
  const defaults = {
    secrets: readSecretList(read, env, 'CONNECTOR_WEBHOOK_SECRETS', readFile),
    apiVersion: read.oneOf('CONNECTOR_SHOPIFY_API_VERSION', API_VERSIONS, DEFAULT_API_VERSION),
    catalogUrl: read.optionalString('CONNECTOR_CATALOG_URL'),
    catalogKey: readSecret(read, env, 'CONNECTOR_CATALOG_API_KEY', readFile),
    app: readAppCredentialDefaults(read, env, readFile),
  };
  if (defaults.catalogUrl !== undefined) read.url('CONNECTOR_CATALOG_URL');
  return defaults;
}

function readShop(
  read: EnvReader,
  env: Env,
  readFile: SecretFileReader,
  domain: string,
  defaults: ShopDefaults,
): ShopConfig {
  const key = shopKey(domain);
  const prefix = `CONNECTOR_SHOP_${key}_`;
  const required = <T>(value: T | undefined, what: string, names: string): T | undefined => {
    if (value === undefined) read.problems.push(`${domain}: ${what} is missing (set ${names})`);
    return value;
  };
  const auth = readShopAuth(read, env, readFile, domain, prefix, defaults.app);
  const appSecret = auth?.app?.clientSecret;
  const webhookSecrets = required(
    readSecretList(read, env, `${prefix}WEBHOOK_SECRETS`, readFile) ??
      defaults.secrets ??
      (appSecret === undefined ? undefined : [appSecret]),
    'the webhook secret',
    `${prefix}WEBHOOK_SECRETS or CONNECTOR_WEBHOOK_SECRETS (or their _FILE), or the app's client secret`,
  );
  const ownUrl = read.optionalString(`${prefix}CATALOG_URL`);
  if (ownUrl !== undefined) read.url(`${prefix}CATALOG_URL`);
  const catalogUrl = required(
    ownUrl ?? defaults.catalogUrl,
    'the catalog URL',
    `${prefix}CATALOG_URL or CONNECTOR_CATALOG_URL`,
  );
  const apiKey = required(
    readSecret(read, env, `${prefix}CATALOG_API_KEY`, readFile) ?? defaults.catalogKey,
    'the catalog API key',
    `${prefix}CATALOG_API_KEY or CONNECTOR_CATALOG_API_KEY (or their _FILE)`,
  );
  const modeName = `${prefix}MODE`;
  const modePin =
    read.optionalString(modeName) === undefined ? undefined : read.oneOf(modeName, SHOP_MODES, 'live');
  return {
    domain,
    key,
    ...(modePin === undefined ? {} : { modePin }),
    auth: auth as ShopAuth,
    webhookSecrets: webhookSecrets ?? [],
    apiVersion: read.oneOf(`${prefix}API_VERSION`, API_VERSIONS, defaults.apiVersion) as ApiVersion,
    mappingFile: read.optionalString(`${prefix}MAPPING_FILE`) ?? null,
    catalog: { baseUrl: (catalogUrl ?? '').replace(/\/+$/, ''), apiKey: apiKey as Secret },
  };
}
