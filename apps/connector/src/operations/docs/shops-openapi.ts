import { operation, query } from './openapi-operation.js';

const TEXT = { mediaType: 'text/plain', schema: { type: 'string' } };
const SHOP = query('shop', 'The shop installing the app: `<name>.myshopify.com`.');

/** The shops routes of the OpenAPI document: the list, and the install's OAuth routes. */
export const SHOPS_PATHS: Record<string, Record<string, unknown>> = {
  '/auth/shopify': {
    get: operation({
      operationId: 'beginInstall',
      tag: 'install',
      summary:
        "Start an install: a signed state cookie, then a redirect to the shop's authorize page (shops of kind installed)",
      parameters: [SHOP],
      answer: TEXT,
      successStatus: 302,
      errors: [400, 404],
    }),
  },
  '/auth/shopify/callback': {
    get: operation({
      operationId: 'completeInstall',
      tag: 'install',
      summary:
        "Shopify's redirect: HMAC, timestamp, state and shop checked, the code exchanged for an expiring token pair (stored encrypted)",
      description:
        'Query: code, hmac, host, shop, state, timestamp (as Shopify signs them). 400 install_refused: a forged or stale redirect, a wrong state, no state cookie; 403 insufficient_scopes: too few scopes granted. Nothing is stored on a refusal.',
      parameters: [SHOP],
      answer: TEXT,
      errors: [400, 403, 404],
    }),
  },
  '/admin/shops': {
    get: operation({
      operationId: 'listShops',
      tag: 'admin',
      summary: 'Every shop: how it authenticates, its state, its token expiry and scopes, its catalog key',
      security: 'adminToken',
      answer: 'ShopList',
      errors: [401, 503],
    }),
  },
};

const nullableTime = { type: ['string', 'null'], format: 'date-time' };

/** JSON Schemas of the shops answers. */
export const SHOPS_SCHEMAS: Record<string, unknown> = {
  ShopList: {
    type: 'object',
    required: ['shops'],
    properties: {
      shops: {
        type: 'array',
        items: {
          type: 'object',
          required: [
            'shop',
            'authKind',
            'state',
            'stateReason',
            'tokenExpiresAt',
            'scopes',
            'lastRefreshAt',
            'refreshCount',
            'subscriptions',
            'subscriptionsCheckedAt',
            'subscriptionsRecreated',
            'catalogKeySet',
          ],
          properties: {
            shop: { type: 'string', description: '`<name>.myshopify.com`' },
            authKind: {
              enum: ['static', 'client-credentials', 'installed'],
              description: 'A static token, the client credentials grant, or an OAuth install.',
            },
            state: {
              enum: ['active', 'needs_reauth', 'uninstalled', 'redacted'],
              description: '`needs_reauth`: Shopify refused the credentials or refresh token; its jobs wait.',
            },
            stateReason: { type: ['string', 'null'] },
            tokenExpiresAt: { ...nullableTime, description: 'Null: the token does not expire.' },
            scopes: { type: ['array', 'null'], items: { type: 'string' } },
            lastRefreshAt: nullableTime,
            refreshCount: {
              type: 'integer',
              description: 'Tokens obtained since the shop was first served.',
            },
            subscriptions: {
              type: ['array', 'null'],
              items: { type: 'string' },
              description: 'Topics subscribed at the last scheduled check (null before one).',
            },
            subscriptionsCheckedAt: nullableTime,
            subscriptionsRecreated: {
              type: 'integer',
              description: 'Subscriptions the check created again.',
            },
            catalogKeySet: { type: 'boolean' },
          },
        },
      },
    },
  },
};
