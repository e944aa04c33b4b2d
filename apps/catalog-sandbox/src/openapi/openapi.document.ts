import { BULK_PATHS } from '../bulk/bulk.openapi.js';
import { ENRICHMENT_PATHS } from '../enrichment/enrichment.openapi.js';
import { REVIEW_PATHS } from '../review/review.openapi.js';
import { OBJECT_STORE_PATHS, OBJECT_STORE_SCHEMAS } from '../uploads/object-store.openapi.js';
import { SCHEMAS } from './openapi.schemas.js';
import { PORTAL_PATHS, PORTAL_SCHEMAS } from './openapi-portal.paths.js';
import { V1_PATHS } from './openapi-v1.paths.js';

/** The OpenAPI 3.1 document of the `/v1` and portal APIs, the object store and the CDN, served at GET /openapi.json (viewer: /docs). */
export function buildOpenApiDocument(): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Product Enrichment Catalog sandbox',
      version: '1.0.0',
      description:
        'The catalog API (/v1, per docs/catalog-api.md), the sandbox portal API (/portal/v1), and the object ' +
        'store and CDN behind uploads. ' +
        'Every answer is an envelope: {errorCode: 0, data} or {errorCode: <HTTP status>, error: {code, message, ...}}.',
    },
    servers: [{ url: '/' }],
    components: {
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        portalToken: { type: 'apiKey', in: 'header', name: 'X-Portal-Token' },
      },
      schemas: { ...SCHEMAS, ...PORTAL_SCHEMAS, ...OBJECT_STORE_SCHEMAS },
    },
    paths: {
      ...V1_PATHS,
      ...PORTAL_PATHS,
      ...ENRICHMENT_PATHS,
      ...REVIEW_PATHS,
      ...BULK_PATHS,
      ...OBJECT_STORE_PATHS,
    },
  };
}
