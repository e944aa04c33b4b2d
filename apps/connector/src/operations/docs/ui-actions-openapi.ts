import { PRODUCT_ID, SHOP, uiAction, uiPage } from './ui-openapi-parts.js';

const SHOP_PATH = { name: 'shop', in: 'path', required: true, schema: { type: 'string' } };

/**
 * Why: the web view's action pages (each a confirm page, then a POST with the CSRF token) are
 * routes like any other, so the document lists them too.
 */
export const UI_ACTIONS_PATHS: Record<string, Record<string, unknown>> = {
  '/admin/ui/products/{id}/resync': {
    get: uiPage('uiConfirmProductResync', "Confirm a product's resync", [PRODUCT_ID, SHOP]),
    post: uiAction('uiProductResync', 'Resync the product now', [PRODUCT_ID, SHOP]),
  },
  '/admin/ui/shops/{shop}/sync': {
    get: uiPage('uiShopSync', "A shop's syncing: paused or running, with pause, resume and resync", [
      SHOP_PATH,
    ]),
  },
  '/admin/ui/shops/{shop}/pause': {
    get: uiPage('uiConfirmShopPause', "Confirm pausing a shop's syncs", [SHOP_PATH]),
    post: uiAction('uiShopPause', "Pause the shop's syncs (form field `reason`)", [SHOP_PATH]),
  },
  '/admin/ui/shops/{shop}/resume': {
    get: uiPage('uiConfirmShopResume', "Confirm resuming a shop's syncs", [SHOP_PATH]),
    post: uiAction('uiShopResume', "Resume the shop's syncs", [SHOP_PATH]),
  },
  '/admin/ui/shops/{shop}/resync': {
    get: uiPage('uiConfirmShopResync', 'Confirm a whole-shop resync', [SHOP_PATH]),
    post: uiAction('uiShopResync', 'Start a whole-shop resync', [SHOP_PATH]),
  },
  '/admin/ui/enrichment/poll': {
    get: uiPage('uiEnrichmentPoll', "The enrichment poll's state, and a form to start one now"),
    post: uiAction('uiStartPoll', 'Start an enrichment poll now'),
  },
};
