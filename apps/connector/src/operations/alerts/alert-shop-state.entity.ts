import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A shop's state as the alerts saw it last and as they last sent it, and the state waiting out
 * the debounce (table `alert_shop_states`, migration 100).
 */
@Entity({ name: 'alert_shop_states' })
export class AlertShopState {
  @PrimaryColumn({ type: 'text' })
  shop!: string;

  @Column({ name: 'seen_state', type: 'text' })
  seenState!: string;

  @Column({ name: 'seen_cause', type: 'text' })
  seenCause!: string;

  /** The state the targets were last told (`healthy` before any alert). */
  @Column({ name: 'notified_state', type: 'text' })
  notifiedState!: string;

  @Column({ name: 'notified_at', type: 'timestamptz', nullable: true })
  notifiedAt!: Date | null;

  /** A state other than the notified one, seen without a break since `pendingSince`. */
  @Column({ name: 'pending_state', type: 'text', nullable: true })
  pendingState!: string | null;

  @Column({ name: 'pending_since', type: 'timestamptz', nullable: true })
  pendingSince!: Date | null;

  @Column({ name: 'checked_at', type: 'timestamptz' })
  checkedAt!: Date;
}
