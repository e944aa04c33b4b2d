import type { ShopSession } from './shop-session.entity.js';

/**
 * Shopify sends `shop/redact` this long after the uninstall it follows ("48 hours after a store
 * owner uninstalls your app", shopify.dev, Privacy law compliance; docs/webhooks-and-lifecycle.md, "Uninstall and redact").
 */
export const SHOP_REDACT_DELAY_MS = 48 * 3_600_000;

/** The lifecycle deliveries that undo an installation. */
export type UndoingTopic = 'app/uninstalled' | 'shop/redact';

/**
 * Why: Shopify retries a delivery for hours with the time it was first triggered
 * (`X-Shopify-Triggered-At`), does not order deliveries, and a delivery can come late; a
 * redelivered `app/uninstalled` or `shop/redact` must not undo an installation that began after
 * it. The rule (docs/webhooks-and-lifecycle.md, "Uninstall and redact"), checked under the session row's lock:
 * - a delivery triggered before the current installation began is about an earlier one;
 * - a `shop/redact` follows its uninstall by 48 hours: while the shop has not been seen
 *   uninstalled since its current installation began, a redact triggered less than 48 hours
 *   after that beginning follows an uninstall from before it.
 * Without a trigger time (no or unreadable header) or an installation time (never seen, a
 * `static` shop), the delivery applies: Shopify sends the header on every delivery, and ignoring
 * a genuine uninstall or redact would be the worse mistake. Returns why the delivery is ignored,
 * or null when it applies.
 */
export function olderThanInstallation(
  topic: UndoingTopic,
  triggeredAt: Date | null,
  session: Pick<ShopSession, 'state' | 'installedAt'>,
): string | null {
  const installedAt = session.installedAt;
  if (triggeredAt === null || installedAt === null) return null;
  const installed = installedAt.toISOString();
  if (triggeredAt.getTime() < installedAt.getTime()) {
    return `triggered at ${triggeredAt.toISOString()}, before the current installation (${installed})`;
  }
  const uninstalledSince = session.state === 'uninstalled' || session.state === 'redacted';
  if (
    topic === 'shop/redact' &&
    !uninstalledSince &&
    triggeredAt.getTime() - SHOP_REDACT_DELAY_MS < installedAt.getTime()
  ) {
    return `triggered at ${triggeredAt.toISOString()}, 48 hours after an uninstall that came before the current installation (${installed})`;
  }
  return null;
}
