import type { DoctorCheckDto, DoctorReportDto } from '../admin/doctor.dto.js';
import { esc, page, scrollTable } from './ui-html.js';
import { timeAgo } from './ui-time.js';

const WORDS: Readonly<Record<DoctorCheckDto['status'], { mark: string; word: string; css: string }>> = {
  pass: { mark: '✓', word: 'passes', css: 'ok' },
  fail: { mark: '✗', word: 'fails', css: 'error' },
  warn: { mark: '!', word: 'warns', css: '' },
  unknown: { mark: '?', word: 'cannot be told', css: 'muted' },
};

/**
 * Why: the shop's page of `connector doctor`'s checks (`GET /admin/doctor?shop=`): one row per
 * check, its status in words beside its mark (never colour alone), what was found, and the fix
 * with its page and command when it does not pass.
 */
export function doctorPage(shop: string, report: DoctorReportDto, now: number, csrf: string): string {
  const base = `/admin/ui/shops/${encodeURIComponent(shop)}`;
  const rows = report.checks
    .map((c) => {
      const words = WORDS[c.status];
      const fix =
        c.status === 'pass' || c.fix === null
          ? ''
          : `${esc(c.fix)}${c.href ? ` <a href="${esc(c.href)}">Open</a>` : ''}${c.command ? `<br><code>${esc(c.command)}</code>` : ''}`;
      return `<tr data-check="${esc(c.check)}" data-status="${c.status}"><th scope="row">${esc(c.check)}</th><td class="${words.css}"><span aria-hidden="true">${words.mark}</span> ${words.word}</td><td>${esc(c.detail)}</td><td>${fix}</td></tr>`;
    })
    .join('');
  const summary =
    report.failed === 0
      ? '<p class="ok" role="status">No check fails.</p>'
      : `<p class="error" role="status">${report.failed} check${report.failed === 1 ? '' : 's'} fail: follow the fixes below.</p>`;
  return page(
    `Checks of ${shop}`,
    `<style>h1,p,code,td,th{overflow-wrap:anywhere}</style>${summary}
<p class="muted">Checked ${esc(timeAgo(Date.parse(report.checkedAt), now))}, reading only (nothing repaired or synced): the public URL, then the shop's token renewal, scopes, webhook subscriptions, catalog key, mapping gaps and clock. The same checks: <code>npm run connector -- doctor --shop ${esc(shop)}</code>. <a href="${base}/doctor">Check again</a> · <a href="${base}/sync">Syncing of ${esc(shop)}</a></p>
${scrollTable(
  `<table><thead><tr><th scope="col">Check</th><th scope="col">Status</th><th scope="col">Found</th><th scope="col">Fix</th></tr></thead><tbody>${rows}</tbody></table>`,
  `Checks of ${shop}`,
)}`,
    csrf,
  );
}
