import type { FailureDto } from '../admin/failure.dto.js';
import { causeInWords, jobKindInWords } from './failure-cause-words.js';
import { actionButton, esc, page, scrollTable } from './ui-html.js';
import { relativeTime } from './ui-timeline-words.js';

const PRODUCT_ID = /^[1-9]\d{0,19}$/;
const STYLE = `<style>dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.3rem 1rem;background:#fff;border:1px solid #e3e6ea;padding:.6rem .8rem}
dl.facts dt{font-weight:600} dl.facts dd{margin:0} pre.raw{white-space:pre-wrap;word-break:break-all;background:#fff;border:1px solid #e3e6ea;padding:.5rem;max-width:100%;overflow-x:auto}</style>`;

/**
 * Why: where a failure's Subject leads. A product's failure (sync, images, write-back) goes to the
 * product's page; any other (a shop's poll, a resync run, a job) to the failure's own page, never
 * to a product page that cannot exist (`poll:internal_error` answered 400 there).
 */
export function failureSubject(failure: FailureDto): { label: string; href: string } {
  const productId = failure.payload.productId;
  if (typeof productId === 'string' && PRODUCT_ID.test(productId) && failure.shop !== '*') {
    return {
      label: failure.subjectKey === productId ? `product ${productId}` : `product ${failure.subjectKey}`,
      href: `/admin/ui/products/${productId}?shop=${encodeURIComponent(failure.shop)}`,
    };
  }
  const label =
    failure.subjectKey === 'poll'
      ? "the shop's enrichment poll"
      : failure.subjectKey.startsWith('run:')
        ? `resync run ${failure.subjectKey.slice(4)}`
        : failure.subjectKey;
  return { label, href: `/admin/ui/failures/${encodeURIComponent(failure.id)}` };
}

/** A time as "3 min ago", the exact UTC time on hover. */
function when(at: string, now: number): string {
  return `<time datetime="${esc(at)}" title="${esc(at.replace('T', ' ').replace(/\.\d{3}Z$/, ' UTC'))}">${esc(relativeTime(at, now))}</time>`;
}

/** The failure's state in words: open, or closed when and by what. */
function stateInWords(f: FailureDto, now: number): string {
  if (f.state === 'open')
    return '<strong class="state-failing">open</strong>: waiting for a success, a replay or a dismissal';
  const at = f.resolvedAt === null ? '' : ` ${when(f.resolvedAt, now)}`;
  if (f.state === 'resolved')
    return `<strong class="state-healthy">resolved</strong>${at}${f.resolvedBy ? ` by the next success (${esc(f.resolvedBy)})` : ' by a later success'}`;
  return `<strong>${esc(f.state)}</strong>${at} by an operator`;
}

/**
 * A failure's own page: what failed and why in words with the next step, each time it happened
 * (its history), the raw error and payload folded, and replay / dismiss while it is open.
 */
export function failurePage(f: FailureDto, csrf: string, now: number): string {
  const cause = causeInWords(f.error.code);
  const subject = failureSubject(f);
  const subjectCell = subject.href.startsWith('/admin/ui/products/')
    ? `<a href="${esc(subject.href)}">${esc(subject.label)}</a>`
    : esc(subject.label);
  const history = [...f.history]
    .reverse()
    .map(
      (o) =>
        `<tr><td>${when(o.at, now)}</td><td>${esc(o.jobId ?? '')}</td><td>${esc(o.attempts)}</td><td>${esc(o.message)}</td></tr>`,
    )
    .join('');
  const shown = f.history.length < f.occurrences ? ` (the latest ${f.history.length})` : '';
  const actions =
    f.state === 'open'
      ? `<h2>Act</h2><p>${actionButton(`/admin/ui/failures/${f.id}/replay`, 'Replay', csrf)} runs the job again now. ${actionButton(
          `/admin/ui/failures/${f.id}/dismiss`,
          'Dismiss',
          csrf,
        )} closes it without running anything.</p>`
      : '';
  const shopCell =
    f.shop === '*'
      ? 'every shop'
      : `${esc(f.shop)} (<a href="/admin/ui/failures?shop=${encodeURIComponent(f.shop)}">its open failures</a>)`;
  return page(
    `Failure ${f.id}`,
    `${STYLE}<p><a href="/admin/ui/failures">Back to the failures</a></p>
<p${f.state === 'open' ? ' class="error"' : ''} data-cause="${esc(f.error.code)}">${esc(cause.words)}</p>
${f.state === 'open' ? `<p><strong>Next step:</strong> ${esc(cause.next)}</p>` : `<p class="muted">Closed (${esc(f.state)}): nothing left to do.</p>`}
<dl class="facts">
<dt>State</dt><dd class="state">${stateInWords(f, now)}</dd>
<dt>Job</dt><dd>${esc(jobKindInWords(f.jobKind))} <code>${esc(f.jobKind)}</code></dd>
<dt>Shop</dt><dd>${shopCell}</dd>
<dt>Subject</dt><dd>${subjectCell}</dd>
<dt>Cause</dt><dd><code>${esc(f.error.code)}</code> ${f.error.retryable ? '(may pass by itself)' : '(will not pass by waiting)'}</dd>
<dt>Happened</dt><dd>${esc(f.occurrences)} time${f.occurrences === 1 ? '' : 's'}, ${esc(f.attempts)} attempt${f.attempts === 1 ? '' : 's'} in all</dd>
<dt>First failed</dt><dd>${when(f.firstFailedAt, now)}</dd>
<dt>Last failed</dt><dd>${when(f.lastFailedAt, now)}</dd>
</dl>
${actions}
<h2>History${esc(shown)}</h2>
${scrollTable(
  `<table><thead><tr><th scope="col">When</th><th scope="col">Job</th><th scope="col">Attempts</th><th scope="col">What it said</th></tr></thead><tbody>${
    history || '<tr><td colspan="4" class="muted">No occurrence recorded.</td></tr>'
  }</tbody></table>`,
  'History',
)}
<details><summary>Raw detail</summary>
<h3>Error message</h3><pre class="raw">${esc(f.error.message)}</pre>
<h3>Job payload</h3><pre class="raw">${esc(JSON.stringify(f.payload, null, 2))}</pre>
</details>`,
    csrf,
  );
}
