import { csrfField, esc, page } from './ui-html.js';

/** Long ids and domains wrap instead of widening a phone's page. */
const WRAP = '<style>h1,p,li{overflow-wrap:anywhere}</style>';

/** One product of a selection: its shop and Shopify product id. */
export interface SelectedProduct {
  shop: string;
  productId: string;
}

/** A selected product as a checkbox and the confirm form carry it: `<shop>:<product id>`. */
export function selectionValue(item: SelectedProduct): string {
  return `${item.shop}:${item.productId}`;
}

/** The checkbox that adds a product of a list to the resync selection (the form `resync-selection`). */
export function selectionBox(item: SelectedProduct): string {
  return `<input type="checkbox" form="resync-selection" name="item" value="${esc(selectionValue(item))}" aria-label="Select product ${esc(item.productId)} of ${esc(item.shop)}">`;
}

/** The selection's own form: a GET to the confirm page (it changes nothing). */
export const SELECTION_FORM =
  '<form id="resync-selection" method="get" action="/admin/ui/resync-selection"><p><button type="submit">Resync selected…</button> <span class="muted">(tick products below; it asks first)</span></p></form>';

const productLink = (item: SelectedProduct, done?: string) =>
  `<a href="/admin/ui/products/${esc(item.productId)}?shop=${encodeURIComponent(item.shop)}${done ? `&amp;done=${encodeURIComponent(done)}` : ''}">Product ${esc(item.productId)}</a> <span class="muted">${esc(item.shop)}</span>`;

/** Why: a selection's resync, confirmed first: the products listed, then one POST with the CSRF token. */
export function resyncSelectionConfirmPage(items: readonly SelectedProduct[], csrf: string): string {
  if (items.length === 0) {
    return page(
      'Resync products',
      `${WRAP}<p class="error" role="alert">No product selected: tick the products to resync on the products page first.</p><p><a href="/admin/ui/products">Back to the products</a></p>`,
      csrf,
    );
  }
  return page(
    `Resync ${items.length} product(s)?`,
    `${WRAP}<p>This reads each of these products from its shop now and syncs it to the catalog again: any difference from what the catalog holds is sent as creates, patches or deletes. Nothing else changes.</p>
<ul class="selection">${items.map((item) => `<li>${productLink(item)}</li>`).join('')}</ul>
<form method="post" action="/admin/ui/resync-selection">${csrfField(csrf)}<input type="hidden" name="items" value="${esc(items.map(selectionValue).join(','))}">
<p><button type="submit">Resync ${items.length} product(s)</button> <a href="/admin/ui/products">Cancel</a></p></form>`,
    csrf,
  );
}

/** What the resync of a selection did: each product's run, or why it did not start. */
export interface SelectionOutcome extends SelectedProduct {
  runId: string | null;
  error: string | null;
}

/** Why: the answer to a selection's resync: a run started for each product, or its refusal. */
export function resyncSelectionResultPage(outcomes: readonly SelectionOutcome[], csrf: string): string {
  const started = outcomes.filter((o) => o.runId !== null).length;
  return page(
    'Resync started',
    `${WRAP}<p class="ok" role="status">Resync started for ${started} of ${outcomes.length} product(s).</p>
<ul class="selection">${outcomes
      .map((o) =>
        o.runId !== null
          ? `<li data-run="${esc(o.runId)}">${productLink(o, o.runId)}: run ${esc(o.runId)}</li>`
          : `<li class="error">${productLink(o)}: not started (${esc(o.error ?? 'refused')})</li>`,
      )
      .join('')}</ul><p><a href="/admin/ui/products">Back to the products</a></p>`,
    csrf,
  );
}
