import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, type SchemaObject, SwaggerModule } from '@nestjs/swagger';
import { buildConnectorOpenApi } from './connector-openapi.js';

const DESCRIPTION =
  'Takes Shopify product webhooks and keeps the Product Enrichment Catalog in step. Errors are ' +
  '{"error": {"code", "message", "requestId", "details"?}}; /admin needs Authorization: Bearer <CONNECTOR_ADMIN_TOKEN>.';

/**
 * Why: the served OpenAPI 3.1 document comes from the routes' own declarations (DTO classes with
 * `@ApiProperty`, `@ApiOperation({ operationId })`, `@ApiResponse`...) through
 * `SwaggerModule.createDocument`; the routes not yet declared that way keep their hand-written
 * entries (`connector-openapi.ts`), which a declared operation replaces.
 */
export function connectorDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('catalog-connector')
    .setVersion('1.0.0')
    .setDescription(DESCRIPTION)
    .addServer('/')
    .addSecurity('adminToken', { type: 'http', scheme: 'bearer', description: 'CONNECTOR_ADMIN_TOKEN' })
    .addSecurity('adminSession', {
      type: 'apiKey',
      in: 'cookie',
      name: 'connector_admin_session',
      description:
        'The /admin/ui session, set by signing in with the admin token; POSTs also need its CSRF token.',
    })
    .addSecurity('shopifyHmac', {
      type: 'apiKey',
      in: 'header',
      name: 'X-Shopify-Hmac-Sha256',
      description: "Base64 HMAC-SHA256 of the raw body with one of the shop's webhook secrets.",
    })
    .build();
  const generated = SwaggerModule.createDocument(app, config);
  const written = buildConnectorOpenApi() as {
    paths: Record<string, Record<string, unknown>>;
    components: { schemas: Record<string, SchemaObject> };
  };
  const paths: Record<string, Record<string, unknown>> = structuredClone(written.paths);
  for (const [path, item] of Object.entries(generated.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      // An undeclared route gets Nest's `Controller_method` id: its hand-written entry stays.
      const declared = !String((operation as { operationId?: string }).operationId).includes('_');
      if (declared || paths[path]?.[method] === undefined)
        paths[path] = { ...paths[path], [method]: operation };
    }
  }
  return {
    ...generated,
    paths: paths as OpenAPIObject['paths'],
    components: {
      ...generated.components,
      schemas: { ...written.components.schemas, ...generated.components?.schemas },
    },
  };
}
