import { operation } from './openapi-operation.js';
import { CONNECTOR_SCHEMAS } from './openapi-schemas.js';
import { OPERATIONS_PATHS } from './operations-openapi.js';
import { OVERVIEW_PATHS, OVERVIEW_SCHEMAS } from './overview-openapi.js';
import { UI_ACTIONS_PATHS } from './ui-actions-openapi.js';
import { UI_DRIFT_PATHS } from './ui-drift-openapi.js';

/** The connector's OpenAPI 3.1 document: every route it serves (checked by test/operations.e2e-spec.ts). */
export function buildConnectorOpenApi(): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: {
      title: 'catalog-connector',
      version: '1.0.0',
      description:
        'Takes Shopify product webhooks and keeps the Product Enrichment Catalog in step. Errors are ' +
        '{"error": {"code", "message", "requestId", "details"?}}; /admin needs Authorization: Bearer <CONNECTOR_ADMIN_TOKEN>.',
    },
    servers: [{ url: '/' }],
    components: {
      securitySchemes: {
        adminToken: { type: 'http', scheme: 'bearer', description: 'CONNECTOR_ADMIN_TOKEN' },
        adminSession: {
          type: 'apiKey',
          in: 'cookie',
          name: 'connector_admin_session',
          description:
            'The /admin/ui session, set by signing in with the admin token; POSTs also need its CSRF token.',
        },
        shopifyHmac: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Shopify-Hmac-Sha256',
          description: "Base64 HMAC-SHA256 of the raw body with one of the shop's webhook secrets.",
        },
      },
      schemas: {
        ...CONNECTOR_SCHEMAS,
        ...OVERVIEW_SCHEMAS,
      },
    },
    paths: {
      '/webhooks/shopify': {
        post: operation({
          operationId: 'receiveShopifyWebhook',
          tag: 'webhooks',
          summary: 'Take a product delivery (create, update, delete), or an app lifecycle or compliance one',
          description:
            'Verifies and stores, then answers; the enqueue follows off the answer\'s path. See the README, "Intake", for every answer.',
          security: 'shopifyHmac',
          answer: 'WebhookAnswer',
          errors: [400, 401, 404, 413, 422, 503],
        }),
      },
      ...OPERATIONS_PATHS,
      ...OVERVIEW_PATHS,
      ...UI_ACTIONS_PATHS,
      ...UI_DRIFT_PATHS,
    },
  };
}
