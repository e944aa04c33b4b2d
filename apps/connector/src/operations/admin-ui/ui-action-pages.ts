import type { OperatorPause } from '../../clients/catalog/sync-pauses.service.js';
import type { PollStatus } from '../../write-back/poll/enrichment-poll-scheduler.service.js';
import { csrfField, esc, page } from './ui-html.js';
import { timeAgo } from './ui-time.js';

/** Long shop domains wrap instead of widening a phone's page. */
const WRAP = '<style>h1,p{overflow-wrap:anywhere}</style>';

/**
 * Why: a shop's syncing state and the way to pause or resume it (each through a confirm page);
 * `runs`: its last and next runs and its run history (`shopRunTimesSection`).
 */
export function shopSyncPage(
  shop: string,
  pause: OperatorPause | null,
  now: number,
  notice: string | null,
  csrf: string,
  runs = '',
): string {
  const base = `/admin/ui/shops/${encodeURIComponent(shop)}`;
  const state = pause
    ? `<p class="sync-state"><strong>Paused</strong> ${timeAgo(pause.since, now)}: ${esc(pause.reason)}</p>
<p><a href="${base}/resume">Resume syncing…</a></p>`
    : `<p class="sync-state"><strong>Syncing</strong>: not paused by an operator.</p>
<p><a href="${base}/pause">Pause syncing…</a></p>`;
  const resync = `<p><a href="${base}/resync">Resync the whole shop…</a></p>
<p><a href="${base}/doctor">Check the deployment for ${esc(shop)}</a>: public URL, token, scopes, webhooks, catalog key, mapping gaps, clock.</p>`;
  return page(
    `Syncing of ${shop}`,
    `${WRAP}${notice ? `<p class="ok" role="status">${esc(notice)}</p>` : ''}${state}${resync}${runs}`,
    csrf,
  );
}

/** Why: the pause's confirm step (no script): what pausing does, a reason, then one POST with the CSRF token. */
export function pauseConfirmPage(shop: string, csrf: string): string {
  const base = `/admin/ui/shops/${encodeURIComponent(shop)}`;
  return page(
    `Pause syncing of ${shop}?`,
    `${WRAP}<p>Syncs of ${esc(shop)}'s products stop before their next catalog call and wait, webhooks keep being received; nothing is lost. Resume to let them run.</p>
<form method="post" action="${base}/pause">${csrfField(csrf)}
<p><label for="reason">Reason, shown to other operators</label><br><input id="reason" name="reason" maxlength="500" size="40"></p>
<button type="submit">Pause syncing of ${esc(shop)}</button> <a href="${base}/sync">Cancel</a></form>`,
    csrf,
  );
}

/** Why: the resume's confirm step: what resuming does, then one POST with the CSRF token. */
export function resumeConfirmPage(shop: string, csrf: string): string {
  const base = `/admin/ui/shops/${encodeURIComponent(shop)}`;
  return page(
    `Resume syncing of ${shop}?`,
    `${WRAP}<p>The syncs of ${esc(shop)} that waited run again, in order, at the shop's catalog budget.</p>
<form method="post" action="${base}/resume">${csrfField(csrf)}
<button type="submit">Resume syncing of ${esc(shop)}</button> <a href="${base}/sync">Cancel</a></form>`,
    csrf,
  );
}

/** Why: the whole-shop resync's confirm step: what it will do, then one POST with the CSRF token. */
export function shopResyncConfirmPage(shop: string, csrf: string): string {
  const base = `/admin/ui/shops/${encodeURIComponent(shop)}`;
  return page(
    `Resync every product of ${shop}?`,
    `${WRAP}<p>This lists every product of ${esc(shop)} in Shopify and syncs each to the catalog again (a resync run, followed in the admin API and the queues view); only differences are sent. It can take a while on a large shop.</p>
<form method="post" action="${base}/resync">${csrfField(csrf)}
<button type="submit">Resync every product of ${esc(shop)}</button> <a href="${base}/sync">Cancel</a></form>`,
    csrf,
  );
}

/** Why: the poll's confirm step and, once started, what the poll did (its state and counts). */
export function pollPage(status: PollStatus | null, now: number, csrf: string): string {
  // Shops held while their catalog work waits (breaker open, no key): paused, with why.
  const held = Object.entries(status?.counts.held ?? {}).map(([shop, why]) => `${shop} — ${why}`);
  const shown = status
    ? `<p role="status" class="ok">Poll ${esc(status.id)} started ${timeAgo(status.requestedAt, now)}: <span class="poll-state">${esc(status.status)}</span>${
        status.error ? `, ${esc(status.error)}` : ''
      }${held.length > 0 ? `, paused for ${esc(held.join('; '))}` : ''}; ${esc(status.pushes.done)} product(s) pushed, ${esc(status.pushes.pending)} waiting.</p><p><a href="/admin/ui/enrichment/poll?poll=${encodeURIComponent(status.id)}">Reload its state</a></p>`
    : '';
  return page(
    'Enrichment poll',
    `${WRAP}${shown}<p>A poll asks the catalog now, for every shop, which enrichment was approved since the last one, and queues the write-back of each product it finds to Shopify. Scheduled polls keep running as before.</p>
<form method="post" action="/admin/ui/enrichment/poll">${csrfField(csrf)}<button type="submit">Start a poll now</button></form>`,
    csrf,
  );
}
