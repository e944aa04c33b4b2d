import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The scope of a pause of every shop. */
export const ALL_SHOPS = '*';

/** Syncing paused by an operator: one shop's, or every shop's (`scope` `*`). */
@Entity({ name: 'sync_pauses' })
export class SyncPause {
  /** A shop domain, or `*` for every shop. */
  @PrimaryColumn({ type: 'text' })
  scope!: string;

  /** The operator's words, shown in the queue view. */
  @Column({ type: 'text' })
  reason!: string;

  @Column({ type: 'timestamptz', name: 'paused_at' })
  pausedAt!: Date;
}
