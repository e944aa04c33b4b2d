import type { ShopListEntryDto } from '../admin/shop-list.dto.js';
import type { FieldDiffDto, PreviewRecordDto, ShopPreviewDto } from '../admin/shop-preview.dto.js';
import { csrfField, esc, page, scrollTable } from './ui-html.js';
import { timeAgo } from './ui-time.js';

/** Long domains and values wrap instead of widening a phone's page. */
const WRAP = '<style>h1,p,li,td{overflow-wrap:anywhere}</style>';

/** Why: the shops page's per-shop settings: mode (live or shadow, or why pinned), catalog key, preview. */
export function shopSettingsSection(shops: readonly ShopListEntryDto[]): string {
  const rows = shops
    .filter((s) => s.source !== 'gone')
    .map((s) => {
      const base = `/admin/ui/shops/${encodeURIComponent(s.shop)}`;
      const other = s.mode === 'live' ? 'shadow' : 'live';
      const mode = s.modePinned
        ? `<span class="muted">pinned by its configuration (CONNECTOR_SHOP_…_MODE): change it there</span>`
        : `<a href="${base}/mode" aria-label="Switch to ${other}: ${esc(s.shop)}">Switch to ${other}…</a>`;
      const key =
        s.source === 'installed'
          ? `<a href="${base}/catalog-key" aria-label="Set the catalog key of ${esc(s.shop)}">${s.catalogKeySet ? 'Replace' : 'Set'} the catalog key…</a>`
          : '<span class="muted">set in the environment</span>';
      return `<tr data-shop-settings="${esc(s.shop)}"><th scope="row">${esc(s.shop)}</th><td class="mode-action">${esc(s.mode)}: ${mode}</td><td>${key}</td><td><a href="${base}/preview" aria-label="Preview of ${esc(s.shop)}">Preview</a></td></tr>`;
    })
    .join('');
  return `<h2>Shop settings</h2>${scrollTable(
    `<table><thead><tr><th scope="col">Shop</th><th scope="col">Mode</th><th scope="col">Catalog key</th><th scope="col">What shadow would send</th></tr></thead>
<tbody>${rows || '<tr><td colspan="4" class="muted">No shop.</td></tr>'}</tbody></table>`,
    'Shop settings',
  )}`;
}

/** Why: the mode switch's confirm step: what the switch does, then one POST with the CSRF token. */
export function modeConfirmPage(shop: string, to: 'live' | 'shadow', csrf: string): string {
  const base = `/admin/ui/shops/${encodeURIComponent(shop)}`;
  const what =
    to === 'shadow'
      ? `In shadow, ${esc(shop)}'s syncs and write-backs are planned and kept for the preview, but nothing is sent to the catalog or to Shopify.`
      : `Live, ${esc(shop)}'s syncs and write-backs are sent; every product with planned writes is synced again now.`;
  return page(
    `Switch ${shop} to ${to}?`,
    `${WRAP}<p>${what}</p>
<form method="post" action="${base}/mode">${csrfField(csrf)}<input type="hidden" name="mode" value="${to}">
<button type="submit">Switch ${esc(shop)} to ${to}</button> <a href="/admin/ui/shops">Cancel</a></form>`,
    csrf,
  );
}

/** Why: the catalog key's form: a password input (the key is never shown, nor echoed back), one POST with the CSRF token. */
export function catalogKeyFormPage(shop: string, problem: string | null, csrf: string): string {
  const base = `/admin/ui/shops/${encodeURIComponent(shop)}`;
  return page(
    `Catalog key of ${shop}`,
    `${WRAP}${problem ? `<p class="error" role="alert">${esc(problem)}</p>` : ''}<p>The key is stored encrypted and never shown again; ${esc(shop)}'s waiting syncs start with it.</p>
<form method="post" action="${base}/catalog-key">${csrfField(csrf)}
<p><label for="apiKey">Catalog API key</label><br><input id="apiKey" name="apiKey" type="password" autocomplete="off" maxlength="512" size="40" required></p>
<button type="submit">Set the catalog key of ${esc(shop)}</button> <a href="/admin/ui/shops">Cancel</a></form>`,
    csrf,
  );
}

/** Why: what a shop setting's change did, in words (never the key). */
export function shopDonePage(title: string, message: string, csrf: string): string {
  return page(
    title,
    `${WRAP}<p class="ok" role="status">${esc(message)}</p><p><a href="/admin/ui/shops">Back to the shops</a></p>`,
    csrf,
  );
}

function value(v: FieldDiffDto['before']): string {
  if (v === null) return '<span class="muted">none</span>';
  return esc(Array.isArray(v) ? v.join(', ') : v);
}

/** A preview row's heading: the catalog record, the Shopify targets, or the image an upload sends (and for which record). */
function recordTitle(r: PreviewRecordDto): string {
  if (r.kind === 'upload') {
    const image = r.image?.sourceUrl ?? r.image?.shopifyMediaId ?? '';
    const owner = r.supplierSku ? ` for catalog record ${esc(r.supplierSku)}` : '';
    return `Image upload <code>${esc(image)}</code>${owner}`;
  }
  return r.source === 'catalog' ? `Catalog record ${esc(r.supplierSku)}` : 'Shopify write-back targets';
}

/** Why: a shop's preview (what shadow would have sent): counts, each product's records with field diffs and final state, the CSV. */
export function previewPage(preview: ShopPreviewDto, csrf: string, now: number): string {
  const base = `/admin/ui/shops/${encodeURIComponent(preview.shop)}`;
  const c = preview.counts;
  const cards = (
    [
      ['Creates', c.creates],
      ['Patches', c.patches],
      ['Deletes', c.deletes],
      ['Media uploads', c.uploads],
      ['Write-backs', c.writeBacks.total],
      ['Conflicts', c.conflicts],
      ['Mapping gaps', c.mappingGaps],
      ['Planned writes', c.total],
    ] as const
  )
    .map(([label, n]) => `<li><strong>${esc(n)}</strong>${label}</li>`)
    .join('');
  const products = preview.products
    .map(
      (p) =>
        `<section class="preview-product" data-product="${esc(p.productId)}"><h2>Product ${esc(p.productId)}</h2><p class="muted">planned ${timeAgo(p.plannedAt, now)}</p>${p.records
          .map(
            (r) => `<h3>${recordTitle(r)}</h3>
<p>Calls: ${r.calls.map((call) => `<code>${esc(call)}</code>`).join(', ') || '<span class="muted">none</span>'}</p>${scrollTable(
              `<table class="diffs"><thead><tr><th scope="col">Field</th><th scope="col">Before</th><th scope="col">After</th></tr></thead><tbody>${
                r.diffs
                  .map(
                    (d) =>
                      `<tr><td>${esc(d.field)}</td><td>${value(d.before)}</td><td>${value(d.after)}</td></tr>`,
                  )
                  .join('') || '<tr><td colspan="3" class="muted">No field changes.</td></tr>'
              }</tbody></table>`,
              `Field changes of ${r.kind === 'upload' ? `the upload of ${r.image?.shopifyMediaId ?? ''}` : r.source === 'catalog' ? r.supplierSku : 'the Shopify targets'} in product ${p.productId}`,
            )}<details><summary>Final state</summary><pre>${esc(r.finalState === null ? 'deleted' : JSON.stringify(r.finalState, null, 2))}</pre></details>`,
          )
          .join('')}</section>`,
    )
    .join('');
  return page(
    `Preview of ${preview.shop}`,
    `${WRAP}<style>pre{white-space:pre-wrap;overflow-wrap:anywhere}</style><p>Mode <strong class="preview-mode">${esc(preview.mode)}</strong>. What this shop's syncs and write-backs would have sent while in shadow. <a href="${base}/preview.csv">Download as CSV</a> (one line per changed field).</p>
<ul class="cards preview-counts">${cards}</ul>${products || '<p class="muted">Nothing planned.</p>'}`,
    csrf,
  );
}
