import type { EnvReader } from '#lib/config';

/**
 * How an app is distributed, which decides the grants it may use: `organization` (an app of the
 * store owner's own organization: client credentials allowed), `custom` or `public`
 * (authorization code only).
 */
export type AppDistribution = 'organization' | 'custom' | 'public';
export const APP_DISTRIBUTIONS: readonly AppDistribution[] = ['organization', 'custom', 'public'];

/** Where the three mandatory compliance webhooks of an app go (none by default). */
export interface ComplianceUrls {
  customersDataRequest: string | null;
  customersRedact: string | null;
  shopRedact: string | null;
}

export const NO_COMPLIANCE_URLS: ComplianceUrls = {
  customersDataRequest: null,
  customersRedact: null,
  shopRedact: null,
};

/** One app the sandbox knows: its credentials, distribution and settings (Dev Dashboard's). */
export interface AppConfig {
  clientId: string;
  /** Signs its webhooks and authorize redirects; checked on the token endpoint. Never logged. */
  clientSecret: string;
  distribution: AppDistribution;
  /** The scopes of the app's configuration: what client credentials tokens are granted. */
  scopes: string[];
  /** Allowed redirection URLs of the authorization code grant. */
  redirectUrls: string[];
  complianceUrls: ComplianceUrls;
}

export const DEFAULT_APP_CLIENT_ID = 'sandbox-app-client-id';
export const DEFAULT_APP_SCOPES = ['read_products', 'write_products', 'read_inventory', 'write_inventory'];

/** An app with the sandbox's default settings. */
export function appConfig(
  clientId: string,
  clientSecret: string,
  distribution: AppDistribution = 'organization',
): AppConfig {
  return {
    clientId,
    clientSecret,
    distribution,
    scopes: [...DEFAULT_APP_SCOPES],
    redirectUrls: [],
    complianceUrls: { ...NO_COMPLIANCE_URLS },
  };
}

/**
 * `SHOPIFY_SANDBOX_APPS`: comma-separated `<client id>:<client secret>:<distribution>`; the first
 * is the default app (the seeded shops' static tokens are its tokens, its secret is the app
 * secret). Unset: one `organization` app, `sandbox-app-client-id`, with `appSecret`.
 */
export function readApps(read: EnvReader, appSecret: string): AppConfig[] {
  const raw = read.optionalString('SHOPIFY_SANDBOX_APPS');
  if (raw === undefined) return [appConfig(DEFAULT_APP_CLIENT_ID, appSecret)];
  const apps: AppConfig[] = [];
  for (const entry of raw.split(',').map((part) => part.trim())) {
    const [clientId = '', clientSecret = '', distribution = '', ...rest] = entry.split(':');
    if (
      !/^[\w-]+$/.test(clientId) ||
      clientSecret === '' ||
      rest.length > 0 ||
      !APP_DISTRIBUTIONS.includes(distribution as AppDistribution)
    ) {
      read.problems.push(
        `SHOPIFY_SANDBOX_APPS must be comma-separated <client id>:<client secret>:<${APP_DISTRIBUTIONS.join(' | ')}>, got "${entry}"`,
      );
      return [appConfig(DEFAULT_APP_CLIENT_ID, appSecret)];
    }
    apps.push(appConfig(clientId, clientSecret, distribution as AppDistribution));
  }
  if (new Set(apps.map((app) => app.clientId)).size !== apps.length) {
    read.problems.push('SHOPIFY_SANDBOX_APPS lists a client id twice');
  }
  return apps;
}
