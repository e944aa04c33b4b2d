import type { LinkReportDto } from '../../resync/link-report.dto.js';
import { csrfField, esc, page } from './ui-html.js';

const WRAP = '<style>h1,h2,p,li{overflow-wrap:anywhere}</style>';

/** The ways a Shopify product can be matched to a catalog record, as the admin API names them. */
export const LINK_MATCHES = ['sku:supplierSku', 'sku:gtin', 'barcode:supplierSku', 'barcode:gtin'] as const;

function list(title: string, items: readonly string[], css: string): string {
  if (items.length === 0) return '';
  const shown = items.slice(0, 200);
  const more = items.length > shown.length ? `<li>… and ${items.length - shown.length} more</li>` : '';
  return `<h2>${esc(title)} (${items.length})</h2><ul class="${css}">${shown.map((i) => `<li>${i}</li>`).join('')}${more}</ul>`;
}

/** Why: what a link did or would do, in words: products linked (with their records), created, updated, deleted, conflicts. */
export function linkReportWords(report: LinkReportDto): string {
  const product = (id: string) =>
    `<a href="/admin/ui/products/${encodeURIComponent(id)}?shop=${encodeURIComponent(report.shop)}">product ${esc(id)}</a>`;
  return `<p>${report.shopifyProducts} Shopify product(s) read, ${report.catalog.records} unlinked catalog record(s) scanned in ${report.catalog.searches} search(es).</p>${list(
    report.dryRun ? 'Would be linked to existing records' : 'Linked to existing records',
    report.linked.map(
      (l) =>
        `${product(l.productId)} → ${l.records.map((r) => `${esc(r.kind)} record ${esc(r.skuId)} (supplierSku ${esc(r.supplierSku)})`).join(', ')}`,
    ),
    'linked',
  )}${list('No record matched: its sync creates them', report.created.map(product), 'created')}${list(
    'Already linked: their sync updates them',
    report.updated.map(product),
    'updated',
  )}${list('Gone from Shopify: their sync deletes their records', report.deleted.map(product), 'deleted')}${list(
    'Conflicts: left alone',
    report.conflicts.map((c) => `${product(c.productId)}: ${esc(c.reason)}`),
    'conflicts',
  )}`;
}

/** Why: the dry run is the confirm step: it shows what linking would do, then one POST (CSRF token) runs it for real. */
export function linkDryRunPage(report: LinkReportDto, csrf: string): string {
  const match = `${report.match.shopify}:${report.match.catalog}`;
  const base = `/admin/ui/link/${encodeURIComponent(report.shop)}`;
  const options = LINK_MATCHES.map(
    (m) => `<option value="${m}"${m === match ? ' selected' : ''}>${esc(m.replace(':', ' ↔ '))}</option>`,
  ).join('');
  return page(
    `Link ${report.shop}: dry run`,
    `${WRAP}<form method="get" action="${base}"><label for="match">Match Shopify's field to the catalog's</label> <select id="match" name="match">${options}</select> <button type="submit">Dry run again</button></form>
<p role="status" class="ok">Dry run: nothing was changed.</p>${linkReportWords(report)}
<form method="post" action="${base}">${csrfField(csrf)}<input type="hidden" name="match" value="${esc(match)}">
<p>Linking for real records these links, then resyncs the whole shop (only differences are sent).</p>
<button type="submit">Link ${esc(report.shop)} for real</button> <a href="/admin/ui">Cancel</a></form>`,
    csrf,
  );
}

/** Why: what the real link did. */
export function linkDonePage(report: LinkReportDto, csrf: string): string {
  const run = report.resyncRunId ? ` Resync run ${esc(report.resyncRunId)} started.` : '';
  return page(
    `Linked ${report.shop}`,
    `${WRAP}<div role="status" class="ok"><p>Linked: ${report.counts.linked} product(s) to existing records.${run}</p></div>${linkReportWords(report)}`,
    csrf,
  );
}

/** Why: reads the match from a form or query (pure); the admin API's default when absent, null when unknown. */
export function linkMatchOf(
  value: unknown,
): { shopify: 'sku' | 'barcode'; catalog: 'supplierSku' | 'gtin' } | null | undefined {
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string' || !(LINK_MATCHES as readonly string[]).includes(value)) return null;
  const [shopify, catalog] = value.split(':') as ['sku' | 'barcode', 'supplierSku' | 'gtin'];
  return { shopify, catalog };
}
