import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** Where a stored delivery stands: waiting for its sync job, handled, or refused at the door. */
export type InboxState = 'received' | 'done' | 'rejected';

/**
 * One webhook delivery as it arrived (table `inbox`, unique per shop on the webhook id). Bigint
 * columns are decimal strings: Shopify ids may exceed 2^53.
 */
@Entity({ name: 'inbox' })
export class InboxEntry {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: string;

  @Column({ type: 'text' })
  shop!: string;

  @Column({ type: 'text', name: 'webhook_id' })
  webhookId!: string;

  @Column({ type: 'text', name: 'event_id', nullable: true })
  eventId!: string | null;

  /** `X-Shopify-Triggered-At` exactly as sent (nanoseconds included). */
  @Column({ type: 'text', name: 'triggered_at', nullable: true })
  triggeredAt!: string | null;

  @Column({ type: 'text' })
  topic!: string;

  @Column({ type: 'text', name: 'api_version', nullable: true })
  apiVersion!: string | null;

  @Column({ type: 'bigint', name: 'product_id', nullable: true })
  productId!: string | null;

  @Column({ type: 'timestamptz', name: 'payload_updated_at', nullable: true })
  payloadUpdatedAt!: Date | null;

  /** The raw bytes the signature was checked on (null when too large to keep). */
  @Column({ type: 'bytea', nullable: true })
  body!: Buffer | null;

  @Column({ type: 'integer', name: 'body_bytes' })
  bodyBytes!: number;

  @Column({ type: 'boolean', name: 'body_truncated' })
  bodyTruncated!: boolean;

  @Column({ type: 'text' })
  state!: InboxState;

  /** Why it is done (`synced`, `stale`, `tombstoned`, ...) or why it was rejected. */
  @Column({ type: 'text', nullable: true })
  outcome!: string | null;

  @Column({ type: 'timestamptz', name: 'received_at' })
  receivedAt!: Date;

  @Column({ type: 'timestamptz', name: 'enqueued_at', nullable: true })
  enqueuedAt!: Date | null;

  @Column({ type: 'timestamptz', name: 'processed_at', nullable: true })
  processedAt!: Date | null;
}
