import type { FailureDto } from '../admin/failure.dto.js';
import { actionButton, esc, page, scrollTable } from './ui-html.js';

/** The failures inbox page: open failures first-class, each with replay and dismiss. */
export function failuresPage(
  failures: FailureDto[],
  total: number,
  state: string,
  notice: string | null,
  csrf: string,
): string {
  const rows = failures
    .map(
      (
        f,
      ) => `<tr data-failure-id="${esc(f.id)}"><td>${esc(f.id)}</td><td>${esc(f.shop)}</td><td>${esc(f.jobKind)}</td>
<td><a href="/admin/ui/products/${esc(f.subjectKey)}?shop=${encodeURIComponent(f.shop)}">${esc(f.subjectKey)}</a></td>
<td><code>${esc(f.error.code)}</code> ${esc(f.error.message)}</td><td>${esc(f.attempts)}</td><td>${esc(f.lastFailedAt)}</td>
<td class="state">${esc(f.state)}</td><td>${
        f.state === 'open'
          ? actionButton(`/admin/ui/failures/${f.id}/replay`, 'Replay', csrf) +
            actionButton(`/admin/ui/failures/${f.id}/dismiss`, 'Dismiss', csrf)
          : ''
      }</td></tr>`,
    )
    .join('');
  const tabs = ['open', 'replayed', 'dismissed', 'resolved']
    .map((s) => (s === state ? `<strong>${s}</strong>` : `<a href="/admin/ui/failures?state=${s}">${s}</a>`))
    .join(' · ');
  return page(
    'Failures',
    `${notice ? `<p class="ok" role="status">${esc(notice)}</p>` : ''}<p>${tabs} — ${esc(total)} ${esc(state)}</p>
${scrollTable(
  `<table><thead><tr><th>Id</th><th>Shop</th><th>Job</th><th>Subject</th><th>Error</th><th>Attempts</th><th>Last failed</th><th>State</th><th>Actions</th></tr></thead>
<tbody>${rows || '<tr><td colspan="9" class="muted">None.</td></tr>'}</tbody></table>`,
  'Failures',
)}`,
    csrf,
  );
}
