/** Where the local stack's services listen. */
export interface LocalStackUrls {
  /** The catalog sandbox, e.g. `http://127.0.0.1:4010`. */
  catalogUrl: string;
  /** The Shopify sandbox, e.g. `http://127.0.0.1:4020`. */
  shopifyUrl: string;
  /** The connector's port (default 3000). */
  port?: number;
}

/** The local stack's admin token (`Authorization: Bearer connector-admin-token`): public, local use only. */
export const LOCAL_STACK_ADMIN_TOKEN = 'connector-admin-token';

/**
 * The connector's environment in the local stack (`npm start`): one shop, the Shopify
 * sandbox's default `demo.myshopify.com` (its default token and app secret), synced into the
 * catalog sandbox's seeded account `demo` (its seeded key, apps/catalog-sandbox/seed/default.json).
 * Admin API calls go to the Shopify sandbox, and the connector subscribes the shop's product
 * webhooks to itself at boot. These values are the sandboxes' public defaults, never real secrets;
 * so is the admin token, which the stack's summary prints (the user's CONNECTOR_ADMIN_TOKEN wins).
 */
export function localStackEnvironment(urls: LocalStackUrls): Record<string, string> {
  const port = urls.port ?? 3000;
  return {
    PORT: String(port),
    CONNECTOR_SHOPS: 'demo.myshopify.com',
    CONNECTOR_SHOP_DEMO_ACCESS_TOKEN: 'shpat_sandbox_demo_token',
    CONNECTOR_WEBHOOK_SECRETS: 'sandbox-app-secret',
    CONNECTOR_CATALOG_URL: urls.catalogUrl,
    CONNECTOR_CATALOG_API_KEY: 'demo-api-key-0001',
    CONNECTOR_SHOPIFY_ADMIN_ORIGIN: urls.shopifyUrl,
    CONNECTOR_PUBLIC_URL: `http://127.0.0.1:${port}`,
    CONNECTOR_ADMIN_TOKEN: LOCAL_STACK_ADMIN_TOKEN,
  };
}
