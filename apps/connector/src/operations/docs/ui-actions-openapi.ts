import { operation, query } from './openapi-operation.js';
import { csrfForm, HTML } from './ui-openapi-parts.js';

const CSV = { mediaType: 'text/csv', schema: { type: 'string' } };
const path = (name: string, pattern = '^.+$') => ({
  name,
  in: 'path',
  required: true,
  schema: { type: 'string', pattern },
});
const SHOP = path('shop');
const PRODUCT_ID = path('id', '^[1-9][0-9]*$');
const KEY = path('key', '^[0-9a-f]{1,64}$');

/** A confirm page or a page to read: GET, changes nothing. */
const uiPage = (operationId: string, summary: string, parameters?: Array<Record<string, unknown>>) =>
  operation({
    operationId,
    tag: 'admin-ui',
    summary,
    security: 'adminSession',
    parameters,
    answer: HTML,
    errors: [400, 404, 409],
  });

/** An action: a POST form with the session's CSRF token (else 403) and its own fields; answers a page (or a 303 to one). */
const uiPost = (
  operationId: string,
  summary: string,
  parameters: Array<Record<string, unknown>>,
  fields: Record<string, unknown> = {},
) => ({
  ...operation({
    operationId,
    tag: 'admin-ui',
    summary,
    security: 'adminSession',
    parameters,
    answer: HTML,
    errors: [400, 403, 404, 409],
  }),
  requestBody: csrfForm(fields),
});

/**
 * Why: the web view's action routes in the OpenAPI document (a spec checks every served route
 * is there): each action's confirm page (GET) and its POST, the shop settings and preview pages.
 */
export const UI_ACTIONS_PATHS: Record<string, Record<string, unknown>> = {
  '/admin/ui/products/{id}/resync': {
    get: uiPage('uiProductResyncConfirm', "A product resync's confirm page", [
      PRODUCT_ID,
      query('shop', 'The shop.'),
    ]),
    post: uiPost('uiProductResync', 'Resync a product', [PRODUCT_ID], { shop: { type: 'string' } }),
  },
  '/admin/ui/resync-selection': {
    get: uiPage('uiResyncSelectionConfirm', "A selection's resync confirm page: the ticked products listed", [
      query('item', 'A selected product, `<shop>:<product id>` (repeated, at most 50).'),
    ]),
    post: uiPost('uiResyncSelection', 'Resync a selection of products: one resync run per product', [], {
      items: {
        type: 'string',
        description: 'The selected products, `<shop>:<product id>`, comma-separated.',
      },
    }),
  },
  '/admin/ui/shops/{shop}/sync': {
    get: uiPage('uiShopSync', "A shop's syncing state: paused or not, and its actions", [SHOP]),
  },
  '/admin/ui/shops/{shop}/pause': {
    get: uiPage('uiShopPauseConfirm', "A shop's pause confirm page", [SHOP]),
    post: uiPost('uiShopPause', "Pause a shop's syncing", [SHOP], {
      reason: { type: 'string', maxLength: 500 },
    }),
  },
  '/admin/ui/shops/{shop}/resume': {
    get: uiPage('uiShopResumeConfirm', "A shop's resume confirm page", [SHOP]),
    post: uiPost('uiShopResume', "Resume a shop's syncing", [SHOP]),
  },
  '/admin/ui/shops/{shop}/resync': {
    get: uiPage('uiShopResyncConfirm', "A whole shop's resync confirm page", [SHOP]),
    post: uiPost('uiShopResync', 'Resync every product of a shop', [SHOP]),
  },
  '/admin/ui/enrichment/poll': {
    get: uiPage('uiPollPage', "The enrichment poll's confirm page and a started poll's state", [
      query('poll', 'A poll id.'),
    ]),
    post: uiPost('uiPoll', 'Start an enrichment poll now', []),
  },
  '/admin/ui/failures/bulk': {
    get: uiPage(
      'uiBulkFailuresConfirm',
      'The confirm page of a bulk replay or dismiss of the ticked failures',
      [
        query('action', 'replay or dismiss.', { enum: ['replay', 'dismiss'] }),
        query('id', 'A ticked failure id (repeated for each).'),
      ],
    ),
    post: uiPost('uiBulkFailures', 'Replay or dismiss the confirmed failures; answers what was done', [], {
      action: { type: 'string', enum: ['replay', 'dismiss'] },
      ids: { type: 'string', description: 'Failure ids, comma-separated (at most 200).' },
    }),
  },
  '/admin/ui/catalog-keys/{key}/pause': {
    get: uiPage('uiCatalogKeyPauseConfirm', "A catalog key's pause confirm page (its shops listed)", [KEY]),
    post: uiPost('uiCatalogKeyPause', 'Pause every shop on a catalog key (one pause per shop)', [KEY], {
      reason: { type: 'string', maxLength: 400 },
    }),
  },
  '/admin/ui/catalog-keys/{key}/resume': {
    get: uiPage('uiCatalogKeyResumeConfirm', "A catalog key's resume confirm page", [KEY]),
    post: uiPost('uiCatalogKeyResume', 'Resume every shop on a catalog key', [KEY]),
  },
  '/admin/ui/shops/{shop}/mode': {
    get: uiPage('uiShopModeConfirm', "A shop's live/shadow switch confirm page", [SHOP]),
    post: uiPost('uiShopMode', 'Switch a shop to live or shadow (409 when pinned)', [SHOP], {
      mode: { type: 'string', enum: ['live', 'shadow'] },
    }),
  },
  '/admin/ui/shops/{shop}/catalog-key': {
    get: uiPage('uiShopCatalogKeyForm', "An installed shop's catalog key form (409 for a configured shop)", [
      SHOP,
    ]),
    post: uiPost('uiShopCatalogKey', "Set an installed shop's catalog key (never echoed)", [SHOP], {
      apiKey: { type: 'string', format: 'password', maxLength: 512 },
    }),
  },
  '/admin/ui/shops/{shop}/preview': {
    get: uiPage('uiShopPreview', 'What a shop in shadow would have sent: counts, field diffs, final states', [
      SHOP,
    ]),
  },
  '/admin/ui/shops/{shop}/preview.csv': {
    get: operation({
      operationId: 'uiShopPreviewCsv',
      tag: 'admin-ui',
      summary: "The shop's preview as CSV, one line per changed field (under the session)",
      security: 'adminSession',
      parameters: [SHOP],
      answer: CSV,
      errors: [400],
    }),
  },
};
