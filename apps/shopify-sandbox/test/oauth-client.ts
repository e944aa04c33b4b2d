import { request } from 'node:http';
import type { ShopifySandboxHarness } from '#testing/shopify-sandbox';

export interface Answer {
  status: number;
  body: Record<string, unknown>;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/**
 * A raw HTTP request to the sandbox (node:http, so the `Host` header can name a shop, as a
 * request to `<shop>.myshopify.com` would).
 */
export function raw(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'GET', headers: options.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: Record<string, unknown> = {};
        try {
          body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
        } catch {
          body = {};
        }
        resolve({ status: res.statusCode ?? 0, body, headers: res.headers, text });
      });
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

/** `POST /admin/oauth/access_token` for the harness's first shop, named in `X-Shopify-Shop-Domain`. */
export function tokenRequest(
  h: ShopifySandboxHarness,
  params: Record<string, string>,
  encoding: 'json' | 'form' = 'json',
): Promise<Answer> {
  const body = encoding === 'json' ? JSON.stringify(params) : new URLSearchParams(params).toString();
  return raw(`${h.url}/admin/oauth/access_token`, {
    method: 'POST',
    headers: {
      'Content-Type': encoding === 'json' ? 'application/json' : 'application/x-www-form-urlencoded',
      'X-Shopify-Shop-Domain': h.shopDomain,
    },
    body,
  });
}

/** Admin GraphQL `{ shop { name } }` with `token`: the status tells whether the token works. */
export async function adminStatus(h: ShopifySandboxHarness, token: string): Promise<number> {
  const response = await fetch(`${h.adminUrl}/graphql.json`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Shopify-Access-Token': token },
    body: JSON.stringify({ query: '{ shop { name } }' }),
  });
  await response.arrayBuffer();
  return response.status;
}

export const INVALID_TOKEN = {
  errors: '[API] Invalid API key or access token (unrecognized login or wrong password)',
};
