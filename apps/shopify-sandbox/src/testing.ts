// Interim testing entry (`#testing/shopify-sandbox`) for the connector's branch; the workspace
// branch ships the real one with the same API.
export * from '../test/harness.js';
export { sandboxFetch } from './sandbox-fetch.js';
