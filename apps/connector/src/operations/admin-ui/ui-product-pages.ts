import type { SkuMapRow } from '../../product-sync/sku-map/sku-map-row.entity.js';
import type { MappingGapProductDto } from '../admin/mapping-gaps.dto.js';
import type { ProductStatusDto } from '../admin/product-status.dto.js';
import type { TimelineEvent } from '../admin/product-timeline.service.js';
import { csrfField, esc, page } from './ui-html.js';
import { productGapsSection } from './ui-mapping-gap-pages.js';
import { ownersHtml, type TargetOwner } from './ui-product-owners.js';
import { timeAgo } from './ui-time.js';
import { eventInWords } from './ui-timeline-words.js';
import { inWords, targetInWords } from './ui-words.js';

const STYLE = `<style>
.muted{color:#4f5661}
.sides{display:grid;grid-template-columns:repeat(auto-fit,minmax(300px,1fr));gap:1rem}
.scroll{overflow-x:auto} form.search{display:flex;flex-wrap:wrap;gap:.6rem;align-items:end;margin-bottom:1rem}
form.search label{display:flex;flex-direction:column} ol.timeline{padding-left:1.2rem} ol.timeline li{margin:.3rem 0}
dl.raw{display:grid;grid-template-columns:max-content 1fr;gap:.1rem .8rem;margin:.3rem 0} dl.raw dt{font-weight:600}
a.button{display:inline-block;padding:.2rem .6rem;border:1px solid #1d2430;border-radius:3px;color:#1d2430;text-decoration:none;background:#fff}
</style>`;

/** Why: the catalog side of the product page, read at page time, by attribute key. */
export interface CatalogSide {
  /** `blame` in words (`enrichment approved`), null for a value sent by the connector or a user. */
  values: Record<string, { value: string; blame: string | null }>;
  error: string | null;
}

/** What the product page shows; `status` null when the sku map holds nothing for the product. */
export interface ProductView {
  shop: string;
  productId: string;
  rows: SkuMapRow[];
  status: ProductStatusDto | null;
  /** The catalog record's values read now; null without a live catalog record. */
  catalog: CatalogSide | null;
  events: TimelineEvent[];
  /** Each write-back target's owner by the mapping's rules; null when the shop has no checked mapping. */
  owners: TargetOwner[] | null;
  /** Why the catalog cannot fully enrich it (its last plan's reasons); null: nothing to say. */
  gaps: MappingGapProductDto | null;
  now: number;
  notice: string | null;
  /** The product's title as the connector stores it; null when none is. */
  title: string | null;
}

/** Why: one product at a glance: both sides, owners, the last sync and write-back, its history in words. */
export function productPage(view: ProductView, csrf: string): string {
  const { shop, productId, status, now } = view;
  const resyncHref = `/admin/ui/products/${esc(productId)}/resync?shop=${encodeURIComponent(shop)}`;
  const lastSync = status?.lastSync
    ? `${timeAgo(status.lastSync.finishedAt, now)}: ${esc(`${inWords('syncOutcome', status.lastSync.outcome)} (after ${inWords('syncReason', status.lastSync.reason)}), ${status.lastSync.calls.length} catalog call(s)`)}`
    : 'none recorded';
  const latest = status?.writeBacks?.[0];
  const lastWriteBack = latest
    ? `${timeAgo(latest.at, now)}: ${esc(`${latest.details.attribute} → ${targetInWords(latest.field)} (${inWords('pushResult', latest.outcome)})`)}`
    : 'none recorded';
  return page(
    view.title === null ? `Product ${productId}` : `${view.title} (product ${productId})`,
    `${STYLE}${view.notice ? `<p class="ok" role="status">${esc(view.notice)}</p>` : ''}
<p class="muted">${esc(shop)}</p>
<p><a class="button" href="${resyncHref}">Resync this product…</a> <a href="/admin/ui/shops/${encodeURIComponent(shop)}/sync">Syncing of the shop</a></p>
<dl class="raw"><dt>Last sync</dt><dd class="last-sync">${lastSync}</dd><dt>Last write-back</dt><dd class="last-write-back">${lastWriteBack}</dd>
${status?.lastError ? `<dt>Last error</dt><dd>${timeAgo(status.lastError.at, now)}: ${esc(status.lastError.code)} ${esc(status.lastError.message)}</dd>` : ''}</dl>
${productGapsSection(view.gaps, now)}
<section class="sides" aria-label="Shopify and catalog sides">${sidesOf(view)}</section>
<section class="owners"><h2>Owners of the write-back targets</h2>${ownersHtml(view.owners)}</section>
<h2>History</h2>${historyOf(view.events, now)}`,
    csrf,
  );
}

function sidesOf(view: ProductView): string {
  if (view.rows.length === 0)
    return '<p class="muted">The sku map holds no catalog record for this product (not synced yet, or out of scope).</p>';
  const own = view.rows.find((row) => row.shopifyVariantId === null) ?? view.rows[0];
  const catalog = view.status?.catalog ?? null;
  const now = view.catalog?.values ?? {};
  const snapshot = own?.snapshot ?? {};
  const names = [...new Set([...Object.keys(snapshot), ...Object.keys(now)])].sort();
  const rows = names
    .map((name) => {
      const value = snapshot[name];
      const shopify =
        value === undefined
          ? '<span class="muted">—</span>'
          : esc(Array.isArray(value) ? value.join(', ') : value);
      const current = now[name];
      const differs =
        value !== undefined &&
        current !== undefined &&
        (Array.isArray(value) ? value.join(', ') : value) !== current.value;
      return `<tr data-attribute="${esc(name)}"${differs ? ' class="differs"' : ''}><th scope="row">${esc(name)}${differs ? ' <strong>(differs)</strong>' : ''}</th><td class="shopify-side">${shopify}</td><td class="catalog-side">${
        current === undefined
          ? '<span class="muted">—</span>'
          : `${esc(current.value)}${current.blame ? ` <em>(${esc(current.blame)})</em>` : ''}`
      }</td></tr>`;
    })
    .join('');
  const records = view.rows
    .map(
      (row) =>
        `<tr><td>${esc(row.kind)}</td><td>${esc(row.shopifyVariantId ?? 'product')}</td><td>${esc(row.supplierSku)}</td><td>${esc(row.skuId ?? '—')}</td><td>${esc(row.state)}</td></tr>`,
    )
    .join('');
  return `<div class="scroll" role="region" aria-label="Fields" tabindex="0"><h2>Fields</h2><p class="muted sides-note">Shopify: as last applied to the catalog; catalog: read now${
    catalog
      ? ` (skuId ${esc(catalog.skuId)}, enrichment ${esc(catalog.enrichmentStatus ?? 'unknown')}${view.catalog?.error ? `, read failed: ${esc(view.catalog.error)}` : ''})`
      : ''
  }</p><table class="fields"><thead><tr><th scope="col">Field</th><th scope="col">Shopify</th><th scope="col">Catalog</th></tr></thead><tbody>${
    rows || '<tr><td colspan="3" class="muted">No field recorded.</td></tr>'
  }</tbody></table></div>
<div class="scroll" role="region" aria-label="Catalog records" tabindex="0"><h2>Catalog records</h2><table><thead><tr><th scope="col">Kind</th><th scope="col">Shopify variant</th><th scope="col">supplierSku</th><th scope="col">skuId</th><th scope="col">State</th></tr></thead><tbody>${records}</tbody></table></div>`;
}

function historyOf(events: TimelineEvent[], now: number): string {
  if (events.length === 0) return '<p class="muted">Nothing recorded for this product.</p>';
  return `<ol class="timeline">${events
    .map(
      (e) =>
        `<li class="event-${esc(e.kind)}"><span>${timeAgo(e.at, now)}: ${esc(eventInWords(e))}</span>${
          e.kind === 'failure' && typeof e.details?.failureId === 'string'
            ? ` <a href="/admin/ui/failures/${esc(e.details.failureId)}">See failure ${esc(e.details.failureId)}</a>`
            : ''
        }${
          e.details && Object.keys(e.details).length > 0
            ? `<details><summary>Raw record</summary><dl class="raw">${Object.entries(e.details)
                .map(
                  ([k, v]) =>
                    `<dt>${esc(k)}</dt><dd><code>${esc(Array.isArray(v) ? v.join('; ') : typeof v === 'object' ? JSON.stringify(v) : v)}</code></dd>`,
                )
                .join('')}</dl></details>`
            : ''
        }</li>`,
    )
    .join('')}</ol>`;
}

/** Why: the resync's confirm step (no script): says what it will do, then one POST with the CSRF token. */
export function resyncConfirmPage(shop: string, productId: string, csrf: string): string {
  return page(
    `Resync product ${productId}?`,
    `<p>This reads product ${esc(productId)} from ${esc(shop)} now and syncs it to the catalog again: any difference from what the catalog holds is sent as creates, patches or deletes. Nothing else changes.</p>
<form method="post" action="/admin/ui/products/${esc(productId)}/resync">${csrfField(csrf)}<input type="hidden" name="shop" value="${esc(shop)}">
<button type="submit">Resync product ${esc(productId)}</button> <a href="/admin/ui/products/${esc(productId)}?shop=${encodeURIComponent(shop)}">Cancel</a></form>`,
    csrf,
  );
}
