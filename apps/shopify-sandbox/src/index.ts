export {
  type AppConfig,
  type AppDistribution,
  appConfig,
  DEFAULT_APP_CLIENT_ID,
} from './apps/app-config.js';
export {
  DEFAULT_APP_SECRET,
  DEFAULT_CONTROL_TOKEN,
  DEFAULT_SHOP,
  type Leniency,
  loadShopifySandboxConfig,
  NO_LENIENCY,
  SANDBOX_API_VERSION,
  type ShopConfig,
  type ShopifySandboxConfig,
} from './config/shopify-sandbox.config.js';
export { CONTROL_TOKEN_HEADER } from './control/control-token.guard.js';
export {
  createShopifySandbox,
  type ShopifySandbox,
  type ShopifySandboxOptions,
} from './create-shopify-sandbox.js';
export { sandboxFetch } from './sandbox-fetch.js';
