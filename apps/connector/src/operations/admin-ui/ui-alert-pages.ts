import type { AlertDelivery } from '../alerts/alert-delivery.entity.js';
import type { AlertShopState } from '../alerts/alert-shop-state.entity.js';
import type { AlertTargetView } from '../alerts/alert-targets.service.js';
import { minutes } from '../overview/shop-health.js';
import { actionButton, csrfField, esc, page, scrollTable } from './ui-html.js';
import { shopOptions } from './ui-sync-pages.js';

/** What the alerts page shows: the targets, each shop as the alerts see it, the latest deliveries. */
export interface AlertsView {
  targets: readonly AlertTargetView[];
  shops: readonly AlertShopState[];
  deliveries: readonly AlertDelivery[];
  /** Every shop the connector serves (the add form's choice). */
  shopNames: readonly string[];
  debounceMs: number;
  checkIntervalMs: number;
  /** A target just added: its generated secret, shown this once. */
  added?: { target: AlertTargetView; secret: string | null };
}

const STATE_CLASS = new Set(['healthy', 'degraded', 'failing']);

function stateCell(state: string): string {
  return `<td class="${STATE_CLASS.has(state) ? `state-${state}` : ''}">${esc(state)}</td>`;
}

function targetsTable(targets: readonly AlertTargetView[], csrf: string): string {
  const rows = targets
    .map(
      (t) =>
        `<tr data-target="${esc(t.id)}"><td>${esc(t.label)}</td><td>${esc(t.kind === 'slack' ? 'Slack' : 'webhook (signed)')}</td>
<td>${esc(t.shop ?? 'every shop')}</td><td><code>${esc(t.url)}</code></td><td>${esc(t.createdAt.toISOString())}</td>
<td${t.problem === null ? '>' : ' class="error">'}${esc(t.problem ?? 'ready')}</td>
<td>${actionButton(`/admin/ui/alerts/targets/${encodeURIComponent(t.id)}/remove`, 'Remove', csrf, 'remove')}</td></tr>`,
    )
    .join('');
  return scrollTable(
    `<table><thead><tr><th scope="col">Target</th><th scope="col">Kind</th><th scope="col">Told about</th><th scope="col">URL</th><th scope="col">Added</th><th scope="col">Status</th><th scope="col">Action</th></tr></thead>
<tbody>${rows || '<tr><td colspan="7" class="muted">No target yet: nobody is told when a shop changes state.</td></tr>'}</tbody></table>`,
    'Alert targets',
  );
}

function shopsTable(shops: readonly AlertShopState[], now: number): string {
  const rows = shops
    .map(
      (s) =>
        `<tr data-shop="${esc(s.shop)}"><td>${esc(s.shop)}</td>${stateCell(s.seenState)}<td>${esc(s.seenCause)}</td>${stateCell(s.notifiedState)}
<td>${s.pendingState === null || s.pendingSince === null ? '—' : `${esc(s.pendingState)} for ${esc(minutes(Math.max(0, now - s.pendingSince.getTime()) / 1000))}`}</td>
<td>${esc(s.checkedAt.toISOString())}</td></tr>`,
    )
    .join('');
  return scrollTable(
    `<table><thead><tr><th scope="col">Shop</th><th scope="col">State now</th><th scope="col">Cause</th><th scope="col">Last sent</th><th scope="col">Waiting out the debounce</th><th scope="col">Looked at</th></tr></thead>
<tbody>${rows || '<tr><td colspan="6" class="muted">Not looked at yet.</td></tr>'}</tbody></table>`,
    'Shops as the alerts see them',
  );
}

function deliveriesTable(deliveries: readonly AlertDelivery[]): string {
  const rows = deliveries
    .map(
      (d) =>
        `<tr data-delivery="${esc(d.id)}"><td>${esc(d.createdAt.toISOString())}</td><td>${esc(d.shop)}</td>
<td>${esc(d.fromState)} → <span class="state-${esc(d.toState)}">${esc(d.toState)}</span></td><td>${esc(d.cause)}</td>
<td>${esc(d.targetLabel)}${d.targetId === null ? ' <span class="muted">(removed)</span>' : ''}</td>
<td>${esc(d.state)}</td><td>${esc(d.attempts)}</td>
<td${d.state === 'failed' ? ' class="error"' : ''}>${esc(d.lastError ?? (d.lastStatus === null ? '—' : `answered ${d.lastStatus}`))}</td></tr>`,
    )
    .join('');
  return scrollTable(
    `<table><thead><tr><th scope="col">Sent</th><th scope="col">Shop</th><th scope="col">Change</th><th scope="col">Cause</th><th scope="col">Target</th><th scope="col">Delivery</th><th scope="col">Attempts</th><th scope="col">Last answer</th></tr></thead>
<tbody>${rows || '<tr><td colspan="8" class="muted">No alert sent yet.</td></tr>'}</tbody></table>`,
    'Recent notifications',
  );
}

function addForm(shopNames: readonly string[], csrf: string): string {
  return `<form method="post" action="/admin/ui/alerts/targets">${csrfField(csrf)}
<p><label>Kind <select name="kind"><option value="webhook">webhook (signed JSON)</option><option value="slack">Slack incoming webhook</option></select></label></p>
<p><label>URL <input name="url" type="url" required style="width:100%;max-width:40rem" placeholder="https://"></label></p>
<p><label>Name <input name="label" maxlength="100"></label></p>
<p><label>Told about <select name="shop">${shopOptions(shopNames, null)}</select></label></p>
<p><label>Signing secret <input name="secret" type="password" minlength="16" maxlength="256" autocomplete="off" placeholder="generated when empty"></label></p>
<button type="submit">Add target</button></form>`;
}

/** A duration in words, below a second too (the look's interval in tests and demos). */
function duration(ms: number): string {
  return ms < 1_000 ? `${ms} ms` : minutes(ms / 1000);
}

/**
 * Why: the web view's alerts (issue 42): the notification targets (never their URL's path or
 * secret; added with a form, removed with a button), each shop's state as the alerts' last look
 * saw it and what was last sent, and the latest deliveries with their attempts and last answer.
 */
export function alertsPage(view: AlertsView, now: number, csrf: string): string {
  const added = view.added
    ? `<div role="status"><p class="ok">Target “${esc(view.added.target.label)}” added.</p>${
        view.added.secret === null
          ? ''
          : `<p>Its signing secret, shown this once (copy it to the receiver): <code>${esc(view.added.secret)}</code></p>`
      }</div>`
    : '';
  return page(
    'Alerts',
    `${added}<p class="muted">Each shop's state change (healthy, degraded, failing, as on the overview) is sent once it has held for ${esc(duration(view.debounceMs))}, looked at every ${esc(duration(view.checkIntervalMs))}, to every target told about the shop; a receiver that is down is tried again with back-off, then the delivery waits in the <a href="/admin/ui/failures">failures inbox</a> (kind alert-delivery). Webhooks are signed (X-Connector-Signature); see the connector's docs/alerts.md.</p>
<h2>Targets</h2>${targetsTable(view.targets, csrf)}
<h2>Add a target</h2>${addForm(view.shopNames, csrf)}
<h2>Shops</h2>${shopsTable(view.shops, now)}
<h2>Recent notifications</h2>${deliveriesTable(view.deliveries)}`,
    csrf,
  );
}
