import type { VerifiedDelivery } from './verified-delivery.js';

/** What the inbox made of a delivery, as the door answers it. */
export interface IntakeOutcome {
  /** `accepted`: stored now; `duplicate`: this webhook id was stored before (a replay). */
  status: 'accepted' | 'duplicate';
  /** The stored row's state: `rejected` rows are kept but refused (same answer on replays). */
  state: 'received' | 'done' | 'rejected';
  /** For rejected rows: why (`malformed_json`, `invalid_payload`, `payload_too_large`). */
  rejection: string | null;
  /**
   * Whether its sync job is queued or being queued: handed to the inbox's enqueue batches (the
   * answer does not wait for the queue), or queued already (a replay). false: stored, the
   * sweeper will queue it.
   */
  queued: boolean;
}

/**
 * Where the door hands verified deliveries (token `DELIVERY_INBOX`). The inbox stage provides
 * it: stages only import earlier ones, so the door names the port and the inbox plugs in.
 */
export interface DeliveryInbox {
  /**
   * Stores the delivery (unless its webhook id is there already) and has its product's sync
   * enqueued; resolves once it is stored.
   */
  accept(delivery: VerifiedDelivery): Promise<IntakeOutcome>;
}
