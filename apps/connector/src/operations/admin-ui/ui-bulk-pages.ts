import type { CatalogKeyGroup } from '../../clients/catalog/catalog-key-shops.js';
import type { OperatorPause } from '../../clients/catalog/sync-pauses.service.js';
import type { BulkOutcome } from '../admin/bulk-failures.js';
import type { FailureDto } from '../admin/failure.dto.js';
import { csrfField, esc, page, scrollTable } from './ui-html.js';

/** Long ids and domains wrap instead of widening a phone's page. */
const WRAP = '<style>h1,p,li{overflow-wrap:anywhere}</style>';

/** The verbs of the failures' bulk actions, as the forms name them. */
export type BulkAction = 'replay' | 'dismiss';

/** Why: the bulk action's confirm step: the selected failures listed, then one POST with the CSRF token. */
export function bulkConfirmPage(action: BulkAction, failures: readonly FailureDto[], csrf: string): string {
  const verb = action === 'replay' ? 'Replay' : 'Dismiss';
  if (failures.length === 0) {
    return page(
      `${verb} failures`,
      `${WRAP}<p class="error" role="alert">No open failure selected: tick the failures to ${action} on the list first.</p><p><a href="/admin/ui/failures">Back to the failures</a></p>`,
      csrf,
    );
  }
  const what =
    action === 'replay'
      ? "Each failure's job runs again (a product sync is enqueued); a failure becomes replayed, and a new one opens if its job fails again."
      : 'Each failure is closed without running its job again.';
  const rows = failures
    .map(
      (f) =>
        `<tr><td>${esc(f.id)}</td><td>${esc(f.shop)}</td><td>${esc(f.jobKind)}</td><td>${esc(f.subjectKey)}</td><td><code>${esc(f.error.code)}</code> ${esc(f.error.message)}</td></tr>`,
    )
    .join('');
  return page(
    `${verb} ${failures.length} failure(s)?`,
    `${WRAP}<p>${what}</p>${scrollTable(
      `<table><thead><tr><th scope="col">Id</th><th scope="col">Shop</th><th scope="col">Job</th><th scope="col">Subject</th><th scope="col">Error</th></tr></thead><tbody>${rows}</tbody></table>`,
      'Selected failures',
    )}
<form method="post" action="/admin/ui/failures/bulk">${csrfField(csrf)}<input type="hidden" name="action" value="${action}"><input type="hidden" name="ids" value="${esc(failures.map((f) => f.id).join(','))}">
<p><button type="submit">${verb} ${failures.length} failure(s)</button> <a href="/admin/ui/failures">Cancel</a></p></form>`,
    csrf,
  );
}

/** Why: what a bulk action did: the failures it resolved and those it left, with why. */
export function bulkResultPage(action: BulkAction, outcome: BulkOutcome, csrf: string): string {
  const past = action === 'replay' ? 'replayed' : 'dismissed';
  const skipped = outcome.skipped.length
    ? `<p>Left as they were:</p><ul class="skipped">${outcome.skipped
        .map((s) => `<li>Failure ${esc(s.id)}: ${esc(s.message)}</li>`)
        .join('')}</ul>`
    : '';
  return page(
    `Failures ${past}`,
    `${WRAP}<p class="ok" role="status"><span class="done-count">${outcome.done.length}</span> failure(s) ${past}${
      outcome.done.length ? `: ${esc(outcome.done.join(', '))}` : ''
    }.</p>${skipped}<p><a href="/admin/ui/failures">Back to the failures</a></p>`,
    csrf,
  );
}

/** Why: the shops page's catalog keys: each key's shops and operator pauses, and the way to pause or resume them together. */
export function catalogKeysSection(
  groups: readonly CatalogKeyGroup[],
  pauses: readonly OperatorPause[],
): string {
  const paused = new Set(pauses.map((p) => p.scope));
  const rows = groups
    .map((g) => {
      const base = `/admin/ui/catalog-keys/${encodeURIComponent(g.fingerprint)}`;
      const count = g.shops.filter((s) => paused.has(s)).length;
      return `<tr data-catalog-key="${esc(g.fingerprint)}"><th scope="row"><code>${esc(g.id)}</code></th><td>${esc(g.shops.join(', '))}</td>
<td class="paused">${count === 0 ? 'syncing' : `${count} of ${g.shops.length} shop(s) paused`}</td>
<td><a href="${base}/pause" aria-label="Pause syncing of every shop on catalog key ${esc(g.fingerprint)}">Pause…</a> · <a href="${base}/resume" aria-label="Resume syncing of every shop on catalog key ${esc(g.fingerprint)}">Resume…</a></td></tr>`;
    })
    .join('');
  return `<h2>Catalog keys</h2><p class="muted">Shops on one catalog key share its budget and breaker. Pausing a key pauses each of its shops (one pause per shop, resumable alone).</p>${scrollTable(
    `<table><thead><tr><th scope="col">Catalog account (never the key)</th><th scope="col">Shops</th><th scope="col">Syncing</th><th scope="col">Actions</th></tr></thead>
<tbody>${rows || '<tr><td colspan="4" class="muted">No shop has a catalog key yet.</td></tr>'}</tbody></table>`,
    'Catalog keys',
  )}`;
}

/** Why: a catalog key's pause or resume confirm step, naming the shops it touches, then one POST with the CSRF token. */
export function catalogKeyConfirmPage(
  action: 'pause' | 'resume',
  group: CatalogKeyGroup,
  csrf: string,
): string {
  const base = `/admin/ui/catalog-keys/${encodeURIComponent(group.fingerprint)}`;
  const shops = esc(group.shops.join(', '));
  const body =
    action === 'pause'
      ? `<p>Syncs of every shop on this catalog key (${shops}) stop before their next catalog call and wait; webhooks keep being received. Each shop gets its own pause.</p>
<form method="post" action="${base}/pause">${csrfField(csrf)}
<p><label for="reason">Reason, shown to other operators</label><br><input id="reason" name="reason" maxlength="400" size="40"></p>
<button type="submit">Pause ${group.shops.length} shop(s)</button> <a href="/admin/ui/shops">Cancel</a></form>`
      : `<p>The operator pauses of every shop on this catalog key (${shops}) are lifted; their waiting syncs run again.</p>
<form method="post" action="${base}/resume">${csrfField(csrf)}
<button type="submit">Resume ${group.shops.length} shop(s)</button> <a href="/admin/ui/shops">Cancel</a></form>`;
  return page(
    `${action === 'pause' ? 'Pause' : 'Resume'} catalog key ${group.fingerprint}?`,
    `${WRAP}${body}`,
    csrf,
  );
}

/** Why: what a catalog key's pause or resume did, shop by shop. */
export function catalogKeyResultPage(
  action: 'pause' | 'resume',
  group: CatalogKeyGroup,
  changed: readonly string[],
  csrf: string,
): string {
  const past = action === 'pause' ? 'paused' : 'resumed';
  return page(
    `Catalog key ${group.fingerprint} ${past}`,
    `${WRAP}<p class="ok" role="status">${changed.length} shop(s) ${past}${changed.length ? `: ${esc(changed.join(', '))}` : ' (none was paused)'}.</p><p><a href="/admin/ui/shops">Back to the shops</a></p>`,
    csrf,
  );
}
