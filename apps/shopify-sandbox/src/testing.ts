// The Shopify sandbox's supported testing entry, imported as `#testing/shopify-sandbox` (README,
// "Testing entry"). Other apps' tests start the sandbox through this, never by path.
export { type AppConfig, type AppDistribution, appConfig, DEFAULT_APP_CLIENT_ID } from './apps/app-config.js';
export type { ShopConfig, ShopifySandboxConfig } from './config/shopify-sandbox.config.js';
export type { ShopifySandbox } from './create-shopify-sandbox.js';
export { sandboxFetch } from './sandbox-fetch.js';
export type { AdminRequestRecord } from './shops/admin-request-log.js';
export {
  type GraphqlBody,
  type SandboxOverrides,
  type ShopifySandboxHarness,
  startShopifySandbox,
} from './testing/start-shopify-sandbox.js';
export type { DeliveryRecord } from './webhooks/delivery-log.js';
