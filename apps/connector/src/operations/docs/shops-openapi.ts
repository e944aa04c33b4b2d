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
      description:
        '410 bot_refused: the User-Agent looks like a bot (the isbot rule of @shopify/shopify-api, which begins no OAuth for bots); open the link in a browser. Nothing is stored.',
      parameters: [SHOP],
      answer: TEXT,
      successStatus: 302,
      errors: [400, 404, 410],
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
};

/** JSON Schemas of the install answers (none: it answers redirects and pages). */
export const SHOPS_SCHEMAS: Record<string, unknown> = {};
