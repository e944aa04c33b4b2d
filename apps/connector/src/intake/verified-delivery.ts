/** Why a signed delivery is kept but not processed (docs/webhooks-and-lifecycle.md, "Intake"). */
export type DeliveryRejection =
  | { code: 'malformed_json'; message: string }
  | { code: 'invalid_payload'; message: string }
  | { code: 'payload_too_large'; message: string };

/** A delivery whose signature was verified, ready to be stored: what the door hands the inbox. */
export interface VerifiedDelivery {
  shop: string;
  webhookId: string;
  eventId: string | null;
  triggeredAt: string | null;
  topic: string;
  apiVersion: string | null;
  /** Decimal string (exact beyond 2^53); null when the payload has no usable id. */
  productId: string | null;
  /** The payload's `updated_at` (null for deletes and unknown). */
  payloadUpdatedAt: Date | null;
  /** Raw bytes, or null when the body was too large to keep. */
  body: Buffer | null;
  bodyBytes: number;
  bodyTruncated: boolean;
  rejection: DeliveryRejection | null;
}
