import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';

const DESCRIPTION =
  'Takes Shopify product webhooks and keeps the Product Enrichment Catalog in step. Errors are ' +
  '{"error": {"code", "message", "requestId", "details"?}}; /admin needs Authorization: Bearer <CONNECTOR_ADMIN_TOKEN>.';

/**
 * Why: the served OpenAPI 3.1 document comes from the routes' own declarations (DTO classes with
 * `@ApiProperty`, `@ApiOperation({ operationId })`, `@ApiResponse`...) through
 * `SwaggerModule.createDocument`, the web view's pages included (`admin-ui/ui-openapi.decorators.ts`);
 * only the document's header and security schemes are written here.
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
  return SwaggerModule.createDocument(app, config);
}
