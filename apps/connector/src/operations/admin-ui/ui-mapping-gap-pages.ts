import type { MappingGapPageDto, MappingGapProductDto } from '../admin/mapping-gaps.dto.js';
import { percent, products } from '../overview/mapping-gap-health.js';
import type { ShopOverviewDto } from '../overview/overview.dto.js';
import { esc, page, scrollTable } from './ui-html.js';
import { relativeTime } from './ui-timeline-words.js';

const listHref = (shop: string, extra = '') =>
  `/admin/ui/mapping-gaps?shop=${encodeURIComponent(shop)}${extra}`;

/**
 * Why: the overview's "Mapping gaps" section: per shop with any, how many products cannot be
 * fully enriched and why, grouped by reason in words, each linking to its list.
 */
export function overviewGapsSection(shops: readonly ShopOverviewDto[]): string {
  const gapped = shops.filter((s) => s.mappingGaps.products > 0);
  if (gapped.length === 0)
    return '<h2>Mapping gaps</h2><p class="muted mapping-gaps">No product has a mapping gap.</p>';
  return `<h2>Mapping gaps</h2>${gapped
    .map((s) => {
      const g = s.mappingGaps;
      const more =
        g.reasonCount > g.reasons.length
          ? `<li><a href="${listHref(s.shop)}">${esc(g.reasonCount - g.reasons.length)} more reasons</a></li>`
          : '';
      return `<section class="mapping-gaps" data-shop="${esc(s.shop)}"><h3>${esc(s.shop)}: <a href="${listHref(s.shop)}">${esc(products(g.products))}</a> cannot be fully enriched (${esc(percent(g.share))} of ${esc(g.knownProducts)})</h3>
<ul>${g.reasons
        .map(
          (r) =>
            `<li><a href="${listHref(s.shop, `&reason=${encodeURIComponent(r.reason)}`)}">${esc(products(r.products))}</a>: <span class="reason">${esc(r.reason)}</span></li>`,
        )
        .join('')}${more}</ul></section>`;
    })
    .join('')}`;
}

/** Why: a product page's "why it cannot be fully enriched", in words; nothing when it has no gap. */
export function productGapsSection(gaps: MappingGapProductDto | null, now: number): string {
  if (gaps === null) return '';
  return `<section class="product-gaps"><h2>Why the catalog cannot fully enrich it</h2>${
    gaps.blocked ? '<p class="error">The catalog holds no record of it: its create was refused.</p>' : ''
  }<ul>${gaps.reasons
    .map(
      (r) =>
        `<li class="reason">${esc(r.reason)}${r.records > 1 ? ` <span class="muted">(${esc(r.records)} of its catalog records)</span>` : ''}</li>`,
    )
    .join(
      '',
    )}</ul><p class="muted">As its last sync planned it, <span title="${esc(gaps.recordedAt)}">${esc(relativeTime(gaps.recordedAt, now))}</span>. Fix the mapping or the product in Shopify; its next sync (or a resync) checks again.</p></section>`;
}

/** Why: the list page of a shop's mapping gaps: every reason with its count, then its products (titles, reasons), paged. */
export function mappingGapsPage(
  view: MappingGapPageDto,
  shops: readonly string[],
  now: number,
  csrf: string,
): string {
  const options = shops
    .map((s) => `<option${s === view.shop ? ' selected' : ''}>${esc(s)}</option>`)
    .join('');
  const reasons = view.reasons
    .map(
      (r) =>
        `<tr${r.reason === view.reason ? ' aria-current="true"' : ''}><td class="reason">${esc(r.reason)}</td><td><a href="${listHref(view.shop, `&reason=${encodeURIComponent(r.reason)}`)}">${esc(products(r.products))}</a></td></tr>`,
    )
    .join('');
  const rows = view.items
    .map(
      (p) =>
        `<tr data-product="${esc(p.productId)}"><th scope="row"><a href="/admin/ui/products/${esc(p.productId)}?shop=${encodeURIComponent(view.shop)}">${esc(p.title ?? `Product ${p.productId}`)}</a> <span class="muted">${esc(p.productId)}</span></th>
<td><ul>${p.reasons.map((r) => `<li>${esc(r.reason)}</li>`).join('')}</ul>${p.blocked ? '<strong>not in the catalog</strong>' : ''}</td><td><span title="${esc(p.recordedAt)}">${esc(relativeTime(p.recordedAt, now))}</span></td></tr>`,
    )
    .join('');
  const filter = view.reason === null ? '' : `&reason=${encodeURIComponent(view.reason)}`;
  const pageLink = (offset: number, label: string) =>
    `<a href="${listHref(view.shop, `${filter}&offset=${offset}&limit=${view.limit}`)}">${label}</a>`;
  const paging = [
    view.offset > 0 ? pageLink(Math.max(0, view.offset - view.limit), 'Previous') : '',
    view.offset + view.items.length < view.total ? pageLink(view.offset + view.limit, 'Next') : '',
  ]
    .filter(Boolean)
    .join(' · ');
  return page(
    'Mapping gaps',
    `<form method="get" action="/admin/ui/mapping-gaps"><label>Shop <select name="shop">${options}</select></label> <button type="submit">Show</button></form>
<p role="status">${esc(products(view.products))} of ${esc(view.shop)} cannot be fully enriched: the mapping leaves a value out, or the catalog's enrichment lacks what it needs.</p>
${reasons ? scrollTable(`<table class="gap-reasons"><thead><tr><th scope="col">Reason</th><th scope="col">Products</th></tr></thead><tbody>${reasons}</tbody></table>`, 'Reasons') : ''}
<h2>${view.reason === null ? 'Products' : `Products with this reason <a class="muted" href="${listHref(view.shop)}">(every reason)</a>`}</h2>
${scrollTable(
  `<table class="gap-products"><thead><tr><th scope="col">Product</th><th scope="col">Why</th><th scope="col">Recorded</th></tr></thead><tbody>${rows || '<tr><td colspan="3" class="muted">None.</td></tr>'}</tbody></table>`,
  'Products with mapping gaps',
)}<p>${esc(view.total)} in all${paging ? ` · ${paging}` : ''}</p>`,
    csrf,
  );
}
