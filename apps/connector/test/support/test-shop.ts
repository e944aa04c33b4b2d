import { createHmac, randomBytes } from 'node:crypto';
import { uniqueId } from '#lib/testing';

/** A shop of the test's own: unique domain, token and webhook secret. */
export interface TestShop {
  domain: string;
  key: string;
  accessToken: string;
  webhookSecrets: string[];
}

export function testShop(overrides: Partial<TestShop> = {}): TestShop {
  const name = uniqueId('c').toLowerCase();
  const domain = overrides.domain ?? `${name}.myshopify.com`;
  return {
    domain,
    key: domain.replace('.myshopify.com', '').replaceAll('-', '_').toUpperCase(),
    accessToken: overrides.accessToken ?? `shpat_${randomBytes(12).toString('hex')}`,
    webhookSecrets: overrides.webhookSecrets ?? [`secret-${randomBytes(8).toString('hex')}`],
  };
}

/** Shopify's signature of a body: base64 HMAC-SHA256 of its exact bytes. */
export function sign(body: string | Buffer, secret: string): string {
  return createHmac('sha256', secret).update(body).digest('base64');
}

/** A products/update body as Shopify writes it (escaped slashes), for a product id and time. */
export function productUpdateBody(productId: string, updatedAt: string, title = 'Test product'): string {
  return (
    `{"admin_graphql_api_id":"gid:\\/\\/shopify\\/Product\\/${productId}","body_html":"<p>${title}<\\/p>",` +
    `"created_at":"${updatedAt}","handle":"test-product","id":${productId},"product_type":"","published_at":null,` +
    `"status":"active","tags":"","title":"${title}","updated_at":"${updatedAt}","vendor":"Acme","variants":[],` +
    `"options":[],"images":[],"image":null,"media":[],"variant_gids":[]}`
  );
}
