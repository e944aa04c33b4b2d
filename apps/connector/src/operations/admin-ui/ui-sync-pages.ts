import type { SyncOutcome } from '../../product-sync/apply/sync-subject.js';
import type { SyncRecordLine } from '../../product-sync/sync-records.repository.js';
import { esc, page, scrollTable } from './ui-html.js';
import { type ListContext, productLink } from './ui-product-link.js';
import { SELECTION_FORM, selectionBox } from './ui-resync-pages.js';
import { timeAgo } from './ui-time.js';
import { inWords } from './ui-words.js';

/** The outcomes a sync run records (`SyncOutcome`, or `failed`), for the list's filter. */
export const SYNC_OUTCOMES = [
  'synced',
  'deleted',
  'tombstoned',
  'stale',
  'nothing_pending',
  'not_found',
  'failed',
] as const satisfies ReadonlyArray<SyncOutcome | 'failed'>;

/** A list's shop choice: every shop, or one. */
export function shopOptions(shops: readonly string[], chosen: string | null): string {
  return ['', ...shops]
    .map(
      (s) =>
        `<option value="${esc(s)}"${s === (chosen ?? '') ? ' selected' : ''}>${esc(s || 'every shop')}</option>`,
    )
    .join('');
}

/**
 * Why: the sync records behind the overview's syncs chart: the latest product sync runs, by
 * shop, outcome and time (a GET form: it changes nothing), each linking to its product's page;
 * ticked products are resynced after a confirm page (a failed run's product, say).
 */
export function syncsPage(
  rows: readonly SyncRecordLine[],
  filter: { shop: string | null; outcome: string | null; hours: number },
  shops: readonly string[],
  csrf: string,
  context: ListContext,
): string {
  const outcomes = ['', ...SYNC_OUTCOMES]
    .map(
      (o) =>
        `<option value="${o}"${o === (filter.outcome ?? '') ? ' selected' : ''}>${o ? inWords('syncOutcome', o) : 'any outcome'}</option>`,
    )
    .join('');
  const body = rows
    .map(
      (
        r,
      ) => `<tr data-sync-record="${esc(r.id)}"><td>${selectionBox(r)} ${timeAgo(r.finishedAt, context.now)}</td><td class="opt">${esc(r.shop)}</td>
<td>${productLink(r.shop, r.productId, context.titles)}</td>
<td class="opt">${esc(inWords('syncReason', r.reason))}</td><td class="outcome">${esc(inWords('syncOutcome', r.outcome))}</td><td class="wrap">${esc(r.detail ?? '')}${
        r.errorCode ? ` <code>${esc(r.errorCode)}</code>` : ''
      }</td><td class="opt">${esc(r.calls)}</td></tr>`,
    )
    .join('');
  return page(
    'Sync records',
    `<form method="get" action="/admin/ui/syncs"><label>Shop <select name="shop">${shopOptions(shops, filter.shop)}</select></label>
<label>Outcome <select name="outcome">${outcomes}</select></label>
<label>Last hours <input name="hours" type="number" min="1" max="720" value="${esc(filter.hours)}"></label> <button type="submit">Filter</button></form>
${rows.length > 0 ? SELECTION_FORM : ''}${scrollTable(
  `<table><thead><tr><th scope="col">Finished</th><th scope="col" class="opt">Shop</th><th scope="col">Product</th><th scope="col" class="opt">Started by</th><th scope="col">Outcome</th><th scope="col">Detail</th><th scope="col" class="opt">Catalog calls</th></tr></thead>
<tbody>${body || '<tr><td colspan="7" class="muted">None.</td></tr>'}</tbody></table>`,
  'Sync records',
)}`,
    csrf,
  );
}
