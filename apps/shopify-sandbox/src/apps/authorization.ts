import { createHmac } from 'node:crypto';
import type { AppConfig } from './app-config.js';

/** An authorize request waiting for the merchant (the control API approves or declines it). */
export interface PendingGrant {
  id: string;
  shop: string;
  clientId: string;
  scopes: string[];
  redirectUri: string;
  state: string | null;
  requestedAt: string;
}

/** `read_products, write_products` → `['read_products', 'write_products']`. */
export function parseScopes(scope: string | undefined): string[] {
  return (scope ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/**
 * The URL the merchant's browser is sent to once the app is approved: `redirect_uri` with
 * `code`, `host`, `shop`, `state`, `timestamp` and their `hmac` (hex HMAC-SHA256 with the client
 * secret of the other parameters, sorted by name, as `@shopify/shopify-api` checks it).
 */
export function signedRedirect(
  app: AppConfig,
  redirectUri: string,
  fields: { code: string; shop: string; state: string | null; now: number },
): string {
  const name = fields.shop.replace(/\.myshopify\.com$/, '');
  const params: Record<string, string> = {
    code: fields.code,
    host: Buffer.from(`admin.shopify.com/store/${name}`).toString('base64').replace(/=+$/, ''),
    shop: fields.shop,
    timestamp: String(Math.floor(fields.now / 1000)),
  };
  if (fields.state !== null) params.state = fields.state;
  const signed = new URLSearchParams(
    Object.keys(params)
      .sort()
      .map((key): [string, string] => [key, params[key] ?? '']),
  );
  const message = signed.toString().replace(/\+/g, '%20');
  signed.set('hmac', createHmac('sha256', app.clientSecret).update(message).digest('hex'));
  const url = new URL(redirectUri);
  for (const [key, value] of signed) url.searchParams.set(key, value);
  return url.toString();
}

/** Shopify's authorize error page: `Oauth error <error>: <description>`. */
export function oauthErrorPage(error: string, description: string): string {
  return `<!DOCTYPE html><html><head><title>Oauth error</title></head><body><h1>Oauth error ${error}: ${escapeHtml(description)}</h1></body></html>`;
}

/** The grant screen a merchant would see (the sandbox's: approve or decline through the control API). */
export function grantScreen(grant: PendingGrant, app: AppConfig): string {
  return [
    '<!DOCTYPE html><html><head><title>Install app</title></head><body>',
    `<h1>Install ${escapeHtml(app.clientId)} on ${escapeHtml(grant.shop)}?</h1>`,
    `<p>Requested access: ${escapeHtml(grant.scopes.join(', ') || 'none')}</p>`,
    `<p>shopify-sandbox: approve with POST /sandbox/shops/${escapeHtml(grant.shop)}/grants/${grant.id}/approve, `,
    `or decline with POST /sandbox/shops/${escapeHtml(grant.shop)}/grants/${grant.id}/decline.</p>`,
    '</body></html>',
  ].join('');
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
