/** The renewal settings (`CONNECTOR_SHOPIFY_TOKEN_REFRESH_MARGIN_MS`, `..._JITTER_MS`). */
export interface RenewalSettings {
  tokenRefreshMarginMs: number;
  tokenRefreshJitterMs: number;
}

/** Why: a token's renewal margin scales down for short-lived tokens: the configured one, at most a fifth of its life. */
export function renewalMargin(settings: RenewalSettings, grantedAt: number, expiresAt: number): number {
  return Math.min(settings.tokenRefreshMarginMs, Math.max(0, expiresAt - grantedAt) / 5);
}

/**
 * When to renew a token granted at `grantedAt`: the margin plus a jitter (`random()` times the
 * configured jitter, at most a tenth of its life) before it expires, so replicas spread out.
 * Null: it never expires.
 */
export function renewalTime(
  settings: RenewalSettings,
  grantedAt: number,
  expiresAt: number | null,
  random: () => number,
): number | null {
  if (expiresAt === null) return null;
  const life = Math.max(0, expiresAt - grantedAt);
  const jitter = random() * Math.min(settings.tokenRefreshJitterMs, life / 10);
  return expiresAt - renewalMargin(settings, grantedAt, expiresAt) - jitter;
}
