import { operation } from './openapi-operation.js';

/** The shops routes of the OpenAPI document. */
export const SHOPS_PATHS: Record<string, Record<string, unknown>> = {
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
            catalogKeySet: { type: 'boolean' },
          },
        },
      },
    },
  },
};
