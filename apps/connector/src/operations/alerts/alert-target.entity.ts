import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** How a target is called: a signed JSON webhook, or Slack's incoming webhook (`{"text"}`). */
export type AlertTargetKind = 'webhook' | 'slack';
export const ALERT_TARGET_KINDS: readonly AlertTargetKind[] = ['webhook', 'slack'];

/** One notification target an operator registered (table `alert_targets`, migration 100). */
@Entity({ name: 'alert_targets' })
export class AlertTarget {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: string;

  @Column({ type: 'text' })
  label!: string;

  @Column({ type: 'text' })
  kind!: AlertTargetKind;

  /** The one shop it is told about; null: every shop. */
  @Column({ type: 'text', nullable: true })
  shop!: string | null;

  /** The URL, encrypted (`TokenCipher`): a Slack webhook's URL is its credential. */
  @Column({ type: 'text' })
  url!: string;

  /** What the lists show of the URL: its origin only. */
  @Column({ name: 'url_shown', type: 'text' })
  urlShown!: string;

  /** The signing secret of a webhook, encrypted; null for Slack. */
  @Column({ type: 'text', nullable: true })
  secret!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
