import { operation, query } from './openapi-operation.js';
import { FAILURE_ID, FORM, HTML, PRODUCT_ID, uiAction } from './ui-openapi-parts.js';

const SHOP = query(
  'shop',
  'One shop (`<name>.myshopify.com`); without it (and without catalogKey), every shop.',
);

/** The operations routes of the OpenAPI document: health details and the web view. */
export const OPERATIONS_PATHS: Record<string, Record<string, unknown>> = {
  '/admin/ui/login': {
    post: {
      ...operation({
        operationId: 'uiSignIn',
        tag: 'admin-ui',
        summary:
          'Sign in with the admin token (form body, never the URL): sets the HttpOnly, SameSite=Strict session cookie',
        answer: HTML,
        successStatus: 303,
        errors: [401, 503],
      }),
      requestBody: FORM({ token: { type: 'string', format: 'password' } }, ['token']),
    },
  },
  '/admin/ui/logout': { post: uiAction('uiSignOut', 'Sign out (clears the session cookie)') },
  '/admin/ui/failures/{id}/replay': {
    post: uiAction('uiReplayFailure', 'Replay an open failure', [FAILURE_ID]),
  },
  '/admin/ui/failures/{id}/dismiss': {
    post: uiAction('uiDismissFailure', 'Dismiss an open failure', [FAILURE_ID]),
  },
  '/admin/ui/products': {
    get: operation({
      operationId: 'uiProductLookup',
      tag: 'admin-ui',
      summary: 'Search products by Shopify product id, supplierSku or skuId (query q, shop)',
      security: 'adminSession',
      answer: HTML,
    }),
  },
  '/admin/ui/products/lookup': {
    get: operation({
      operationId: 'uiProductLookupGo',
      tag: 'admin-ui',
      summary: "Redirects (303) to the product's timeline",
      security: 'adminSession',
      parameters: [query('id', 'Shopify product id.'), SHOP],
      answer: HTML,
      successStatus: 303,
      errors: [400],
    }),
  },
  '/admin/ui/products/{id}': {
    get: operation({
      operationId: 'uiProductTimeline',
      tag: 'admin-ui',
      summary: "A product's timeline: webhooks, jobs, failures, sync records and write-backs",
      security: 'adminSession',
      parameters: [PRODUCT_ID, SHOP],
      answer: HTML,
      errors: [400],
    }),
  },
};
