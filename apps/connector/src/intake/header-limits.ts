import { ConnectorError } from '../platform/http/connector.error.js';
import { ConnectorErrorCode } from '../platform/http/connector-error-code.js';
import type { WebhookHeaders } from './webhook-headers.js';

/** The longest webhook id, event id or topic the inbox stores (Shopify's are far shorter). */
export const MAX_STORED_HEADER_LENGTH = 255;

const STORED_HEADERS: ReadonlyArray<[keyof WebhookHeaders, string]> = [
  ['webhookId', 'X-Shopify-Webhook-Id'],
  ['eventId', 'X-Shopify-Event-Id'],
  ['topic', 'X-Shopify-Topic'],
];

/**
 * Refuses a signed delivery whose stored headers are too long with `400 invalid_header`: such a
 * row can never be stored (the unique index refuses it), so a 503 would have Shopify retry it for
 * hours. Checked after the signature, so an unsigned caller learns nothing from it.
 */
export function assertStorableHeaders(headers: WebhookHeaders): void {
  for (const [field, header] of STORED_HEADERS) {
    const value = headers[field];
    if (value !== undefined && value.length > MAX_STORED_HEADER_LENGTH) {
      throw new ConnectorError(
        ConnectorErrorCode.INVALID_HEADER,
        `The ${header} header is longer than ${MAX_STORED_HEADER_LENGTH} characters; nothing was stored.`,
        { header },
      );
    }
  }
}
