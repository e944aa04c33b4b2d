import type { FailureDto } from '../admin/failure.dto.js';
import { causeInWords } from './failure-cause-words.js';
import { failureSubject } from './ui-failure-pages.js';
import { actionButton, esc, page, scrollTable } from './ui-html.js';
import { type ListContext, productLink } from './ui-product-link.js';
import { shopOptions } from './ui-sync-pages.js';
import { timeAgo } from './ui-time.js';
import { inWords } from './ui-words.js';

/** A failure's subject: its product's page (title and id) when it is one, else the failure's own page. */
function subjectOf(f: FailureDto, context: ListContext): string {
  const productId = f.payload.productId;
  if (typeof productId === 'string' && /^\d{1,20}$/.test(productId) && f.shop !== '*')
    return productLink(f.shop, productId, context.titles);
  const subject = failureSubject(f);
  return `<a href="${esc(subject.href)}">${esc(subject.label)}</a>`;
}

/** The failures inbox page: open failures first-class, each with replay and dismiss, and ticked ones in bulk. */
export function failuresPage(
  failures: FailureDto[],
  total: number,
  state: string,
  notice: string | null,
  csrf: string,
  filter: { shop: string | null; hours: number | null; shops: readonly string[] },
  context: ListContext,
): string {
  const rows = failures
    .map(
      (f) => `<tr data-failure-id="${esc(f.id)}"><td>${
        f.state === 'open'
          ? `<input type="checkbox" form="bulk" name="id" value="${esc(f.id)}" id="select-${esc(f.id)}" aria-label="Select failure ${esc(f.id)}"> `
          : ''
      }<a href="/admin/ui/failures/${esc(f.id)}">${esc(f.id)}</a></td><td class="opt">${esc(f.shop)}</td><td class="opt">${esc(inWords('jobKind', f.jobKind))}</td>
<td>${subjectOf(f, context)}</td>
<td class="wrap"><code>${esc(f.error.code)}</code> ${esc(causeInWords(f.error.code).words)} <span class="muted">${esc(f.error.message)}</span></td><td class="opt">${esc(f.attempts)}</td><td class="opt">${timeAgo(f.lastFailedAt, context.now)}</td>
<td class="state">${esc(f.state)}</td><td>${
        f.state === 'open'
          ? `${actionButton(`/admin/ui/failures/${f.id}/replay`, 'Replay', csrf)} ${actionButton(`/admin/ui/failures/${f.id}/dismiss`, 'Dismiss', csrf)}`
          : ''
      }</td></tr>`,
    )
    .join('');
  const kept = `${filter.shop ? `&amp;shop=${encodeURIComponent(filter.shop)}` : ''}${filter.hours ? `&amp;hours=${filter.hours}` : ''}`;
  const tabs = ['open', 'replayed', 'dismissed', 'resolved']
    .map((s) =>
      s === state ? `<strong>${s}</strong>` : `<a href="/admin/ui/failures?state=${s}${kept}">${s}</a>`,
    )
    .join(' · ');
  const form = `<form method="get" action="/admin/ui/failures"><input type="hidden" name="state" value="${esc(state)}">
<label>Shop <select name="shop">${shopOptions(filter.shops, filter.shop)}</select></label>
<label>Failed in the last hours <input name="hours" type="number" min="1" max="720" value="${esc(filter.hours ?? '')}" placeholder="any time"></label> <button type="submit">Filter</button></form>`;
  const bulk =
    state === 'open' && failures.length > 0
      ? `<form id="bulk" method="get" action="/admin/ui/failures/bulk"><p>With the ticked failures: <button type="submit" name="action" value="replay">Replay selected…</button> <button type="submit" name="action" value="dismiss">Dismiss selected…</button> <span class="muted">(each asks first)</span></p></form>`
      : '';
  return page(
    'Failures',
    `${notice ? `<p class="ok" role="status">${esc(notice)}</p>` : ''}<p>${tabs} — ${esc(total)} ${esc(state)}</p>${form}
${bulk}${scrollTable(
  `<table><thead><tr><th>Id</th><th class="opt">Shop</th><th class="opt">Job</th><th>Subject</th><th>Error</th><th class="opt">Attempts</th><th class="opt">Last failed</th><th>State</th><th>Actions</th></tr></thead>
<tbody>${rows || '<tr><td colspan="9" class="muted">None.</td></tr>'}</tbody></table>`,
  'Failures',
)}`,
    csrf,
  );
}
