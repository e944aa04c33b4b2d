export type DeliveryState = 'pending' | 'delivered' | 'failed' | 'dropped';

export interface DeliveryAttempt {
  number: number;
  at: string;
  /** HTTP status of the answer; null when there was none (refused, timed out). */
  status: number | null;
  error: string | null;
  durationMs: number;
}

/** One webhook delivery (a duplicate is a delivery of its own) and its attempts. */
export interface DeliveryRecord {
  id: string;
  webhookId: string;
  eventId: string;
  topic: string;
  subscriptionId: string;
  uri: string;
  /** The product of a `products/*` delivery; null for app and compliance topics. */
  productId: number | null;
  /** The API version that answered (the subscription's, or the oldest supported one). */
  apiVersion: string;
  /** `X-Shopify-Triggered-At` (nanosecond precision). */
  triggeredAt: string;
  state: DeliveryState;
  /** True for a copy made by the `duplicate` fault. */
  duplicate: boolean;
  attempts: DeliveryAttempt[];
  payload: unknown;
}

/** The delivery log of one shop, oldest first; read and cleared through the control API. */
export class DeliveryLog {
  private records: DeliveryRecord[] = [];

  add(record: DeliveryRecord): void {
    this.records.push(record);
  }

  list(): DeliveryRecord[] {
    return [...this.records];
  }

  clear(): void {
    this.records = [];
  }
}
