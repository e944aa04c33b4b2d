import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { AlertTargetKind } from './alert-target.entity.js';

/** Where one delivery stands: sent and answered 2xx, failed for good, or its target removed first. */
export type AlertDeliveryState = 'pending' | 'delivered' | 'failed' | 'cancelled';

/** One shop's state change sent to one target, with its attempts (table `alert_deliveries`, migration 100). */
@Entity({ name: 'alert_deliveries' })
export class AlertDelivery {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: string;

  /** Null once the target is removed (its label stays). */
  @Column({ name: 'target_id', type: 'bigint', nullable: true })
  targetId!: string | null;

  @Column({ name: 'target_label', type: 'text' })
  targetLabel!: string;

  @Column({ type: 'text' })
  kind!: AlertTargetKind;

  @Column({ type: 'text' })
  shop!: string;

  @Column({ name: 'from_state', type: 'text' })
  fromState!: string;

  @Column({ name: 'to_state', type: 'text' })
  toState!: string;

  /** The new state's first reason, in words (the overview's). */
  @Column({ type: 'text' })
  cause!: string;

  /** Every reason the overview gave for the new state. */
  @Column({ type: 'jsonb' })
  reasons!: string[];

  /** When the new state was first seen (it then held for the debounce). */
  @Column({ name: 'changed_at', type: 'timestamptz' })
  changedAt!: Date;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ type: 'text' })
  state!: AlertDeliveryState;

  @Column({ type: 'integer' })
  attempts!: number;

  /** The target's last HTTP status; null: no answer (or no attempt yet). */
  @Column({ name: 'last_status', type: 'integer', nullable: true })
  lastStatus!: number | null;

  @Column({ name: 'last_error', type: 'text', nullable: true })
  lastError!: string | null;

  @Column({ name: 'last_attempt_at', type: 'timestamptz', nullable: true })
  lastAttemptAt!: Date | null;

  @Column({ name: 'delivered_at', type: 'timestamptz', nullable: true })
  deliveredAt!: Date | null;
}
