// The catalog sandbox's import surface (tests use `#testing/catalog-sandbox`).
export type { CatalogSandboxConfig } from './config/catalog-sandbox.config.js';
export {
  DEFAULT_SEED_PATH,
  DEV_PORTAL_TOKEN,
  loadCatalogSandboxConfig,
} from './config/catalog-sandbox.config.js';
export { DEFAULT_BEHAVIOUR, type SandboxBehaviour } from './config/sandbox-behaviour.js';
export {
  type CatalogSandbox,
  type CatalogSandboxOptions,
  createCatalogSandbox,
} from './create-catalog-sandbox.js';
