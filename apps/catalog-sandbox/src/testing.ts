// The catalog sandbox's supported testing entry, imported as `#testing/catalog-sandbox` (README,
// "Testing entry"). Other apps' and libraries' tests start the sandbox through this, never by path.
export type { AccountDefinition } from './accounts/account-definition.js';
export type { SandboxBehaviour } from './config/sandbox-behaviour.js';
export type { RequestLogEntry, RequestLogQuery } from './request-log/request-log.js';
export {
  type FaultReport,
  type PortalAccess,
  type PortalControls,
  portalFor,
  type RequestLogFilter,
} from './testing/portal-controls.js';
export { sampleImage } from './testing/sample-images.js';
export {
  apiFor,
  type CatalogSandboxHarness,
  type SandboxCaller,
  type SandboxHarnessOptions,
  startCatalogSandbox,
  type TestAccount,
} from './testing/start-catalog-sandbox.js';
export { attr, productBody, seedConfiguration } from './testing/test-bodies.js';
export type { FaultPlan, FaultRule } from './traffic/fault-plan.js';
export type { ImageFormat } from './uploads/image-format.js';
