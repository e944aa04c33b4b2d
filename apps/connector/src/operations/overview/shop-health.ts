import { type MappingGapFacts, mappingGapReason } from './mapping-gap-health.js';

/** A shop's state at a glance (the connector's docs/admin-api.md, "Shop states"). */
export type ShopHealthState = 'healthy' | 'degraded' | 'failing';

/** Everything the rules read about one shop, gathered by `OverviewService`. */
export interface ShopHealthFacts {
  /** The session row's state: `active`, `needs_reauth`, `uninstalled`, `redacted`. */
  authState: string;
  /** Why the shop is not `active` (Shopify's refusal, the uninstall); null when active. */
  authReason: string | null;
  /** An operator's pause of the shop (or of every shop), with its reason; null when none. */
  operatorPause: string | null;
  /** The mapping check's problem for the shop; null when its mapping is valid. */
  mappingProblem: string | null;
  /** Why its stored catalog key cannot be used (it cannot be decrypted); null: none. */
  catalogKeyProblem: string | null;
  /** Deliveries waiting for their sync, and the oldest one's age in seconds (null: none waiting). */
  backlog: number;
  backlogAgeSeconds: number | null;
  /** A backlog older than this makes the shop failing (`CONNECTOR_OVERVIEW_BACKLOG_FAILING_MS`, 5 minutes by default). */
  backlogFailingSeconds: number;
  /** The catalog breaker's state for the shop's account (`closed`, `open`, `half-open`). */
  breaker: string;
  /** Seconds since the enrichment poll's checkpoint (null before the first poll), and its interval. */
  pollLagSeconds: number | null;
  pollIntervalSeconds: number;
  /** Open failures of the shop by job kind. */
  openFailures: Record<string, number>;
  /** Its products with mapping gaps (absent: not known). */
  mappingGaps?: MappingGapFacts;
}

/** A shop's state and every reason for it, in words (worst rule first). */
export interface ShopHealth {
  state: ShopHealthState;
  reasons: string[];
}

/**
 * Why: one set of rules, shared by `GET /admin/overview` and the overview page, decides whether
 * a shop is `failing` (nothing of it gets through: its auth, an operator's pause, an invalid
 * mapping, a stored catalog key that cannot be decrypted, a sync backlog older than its
 * threshold, 5 minutes by default), `degraded` (it gets through, slowly or with gaps: the
 * catalog breaker open, the enrichment poll lagging more than twice its interval, open failures,
 * more than `CONNECTOR_MAPPING_GAP_DEGRADED_SHARE` of its products with mapping gaps)
 * or `healthy`. Pure, so each rule is unit-tested.
 */
export function shopHealth(facts: ShopHealthFacts): ShopHealth {
  const failing: string[] = [];
  if (facts.authState === 'needs_reauth') {
    failing.push(`Shopify refuses its token: it needs to be authorised again${suffix(facts.authReason)}`);
  } else if (facts.authState === 'uninstalled' || facts.authState === 'redacted') {
    failing.push(
      `the app is ${facts.authState === 'redacted' ? 'uninstalled and its data redacted' : 'uninstalled'}`,
    );
  }
  if (facts.operatorPause !== null)
    failing.push(`syncing is paused by an operator${suffix(facts.operatorPause)}`);
  if (facts.mappingProblem !== null) failing.push(`its mapping is invalid${suffix(facts.mappingProblem)}`);
  if (facts.catalogKeyProblem !== null) failing.push(`${facts.catalogKeyProblem} (set it again)`);
  if (facts.backlogAgeSeconds !== null && facts.backlogAgeSeconds > facts.backlogFailingSeconds) {
    failing.push(
      `${facts.backlog} deliveries wait for their sync, the oldest for ${minutes(facts.backlogAgeSeconds)}`,
    );
  }
  const degraded: string[] = [];
  if (facts.breaker !== 'closed') degraded.push(`the catalog breaker is ${facts.breaker}`);
  if (facts.pollLagSeconds !== null && facts.pollLagSeconds > 2 * facts.pollIntervalSeconds) {
    degraded.push(
      `the enrichment poll lags ${minutes(facts.pollLagSeconds)} (more than twice its ${facts.pollIntervalSeconds} s interval)`,
    );
  }
  const kinds = Object.entries(facts.openFailures).filter(([, count]) => count > 0);
  if (kinds.length > 0) {
    degraded.push(`open failures: ${kinds.map(([kind, count]) => `${count} ${kind}`).join(', ')}`);
  }
  const gaps = facts.mappingGaps ? mappingGapReason(facts.mappingGaps) : null;
  if (gaps !== null) degraded.push(gaps);
  if (failing.length > 0) return { state: 'failing', reasons: [...failing, ...degraded] };
  if (degraded.length > 0) return { state: 'degraded', reasons: degraded };
  return { state: 'healthy', reasons: ['everything gets through'] };
}

function suffix(detail: string | null): string {
  return detail ? ` (${detail})` : '';
}

/** A duration in words: seconds under two minutes, then minutes, then hours. */
export function minutes(seconds: number): string {
  if (seconds < 120) return `${Math.round(seconds)} s`;
  if (seconds < 7200) return `${Math.round(seconds / 60)} min`;
  return `${Math.round(seconds / 3600)} h`;
}
