import { createHmac } from 'node:crypto';

/** The header carrying `sha256=<hex>`: HMAC-SHA256 of `<timestamp>.<raw body>` with the target's secret. */
export const SIGNATURE_HEADER = 'X-Connector-Signature';
/** The header carrying the signing time, in Unix seconds (part of what is signed). */
export const TIMESTAMP_HEADER = 'X-Connector-Timestamp';
/** The header carrying the delivery's id: the same on each retry, so a receiver can drop a repeat. */
export const DELIVERY_HEADER = 'X-Connector-Delivery';
/** The event type, in the body and in this header. */
export const EVENT_HEADER = 'X-Connector-Event';
export const STATE_CHANGED = 'shop.state_changed';

/** One shop's state change, as a target is told it. */
export interface AlertEvent {
  /** The delivery's id. */
  id: string;
  shop: string;
  from: string;
  to: string;
  /** The new state's first reason, in words. */
  cause: string;
  reasons: string[];
  /** When the shop left its previous state (it then held for the debounce). */
  changedAt: Date;
  /** When the change was sent out. */
  at: Date;
  /** The web view where the shop's state and causes are. */
  link: string;
}

/**
 * Why: a generic webhook's body, fixed for the event so that every retry sends the same bytes:
 * `{"type": "shop.state_changed", "id", "shop", "from", "to", "cause", "reasons", "changedAt",
 * "at", "link"}` (docs/alerts.md, "Webhook targets").
 */
export function webhookBody(event: AlertEvent): string {
  return JSON.stringify({
    type: STATE_CHANGED,
    id: event.id,
    shop: event.shop,
    from: event.from,
    to: event.to,
    cause: event.cause,
    reasons: event.reasons,
    changedAt: event.changedAt.toISOString(),
    at: event.at.toISOString(),
    link: event.link,
  });
}

const SLACK_MARK: Record<string, string> = {
  failing: ':red_circle:',
  degraded: ':large_orange_circle:',
  healthy: ':large_green_circle:',
};

/**
 * Why: Slack's incoming webhooks take `{"text": ...}` in its mrkdwn: the shop, its new state and
 * the one before, the cause (and any other reason), and a link to the web view. `&`, `<` and `>`
 * are escaped as Slack asks, so a reason cannot forge a link or a mention.
 */
export function slackBody(event: AlertEvent): string {
  const mark = SLACK_MARK[event.to] ?? ':grey_question:';
  const others = event.reasons.filter((reason) => reason !== event.cause);
  const lines = [
    `${mark} *${slackText(event.shop)}* is *${slackText(event.to)}* (was ${slackText(event.from)}): ${slackText(event.cause)}`,
    ...(others.length > 0 ? [`Also: ${others.map(slackText).join('; ')}`] : []),
    `<${slackText(event.link)}|Open the connector's web view>`,
  ];
  return JSON.stringify({ text: lines.join('\n') });
}

function slackText(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

/**
 * Why: the signature a webhook target checks: `sha256=` and the hex HMAC-SHA256, keyed with the
 * secret's UTF-8 bytes, of the timestamp (Unix seconds), a dot, and the raw body. Signing the
 * timestamp too lets a receiver refuse an old request replayed (docs/alerts.md, "Verifying").
 */
export function alertSignature(secret: string, timestamp: number, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}
