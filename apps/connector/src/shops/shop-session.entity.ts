import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Where a shop stands with the connector (docs/shop-auth.md, "How each shop authenticates"). */
export const SHOP_STATES = ['active', 'needs_reauth', 'uninstalled', 'redacted'] as const;
export type ShopState = (typeof SHOP_STATES)[number];

/** One shop's session row: its auth kind, state and (grants only) encrypted token pair. */
@Entity({ name: 'shop_sessions' })
export class ShopSession {
  @PrimaryColumn({ type: 'text' })
  shop!: string;

  @Column({ type: 'text', name: 'auth_kind' })
  authKind!: string;

  @Column({ type: 'text' })
  state!: ShopState;

  /** Why the shop is not `active` (Shopify's refusal, the uninstall). */
  @Column({ type: 'text', name: 'state_reason', nullable: true })
  stateReason!: string | null;

  /** `TokenCipher` output, never the token itself. */
  @Column({ type: 'text', name: 'access_token', nullable: true })
  accessToken!: string | null;

  @Column({ type: 'timestamptz', name: 'expires_at', nullable: true })
  expiresAt!: Date | null;

  /** `TokenCipher` output (installed shops with expiring tokens). */
  @Column({ type: 'text', name: 'refresh_token', nullable: true })
  refreshToken!: string | null;

  @Column({ type: 'timestamptz', name: 'refresh_token_expires_at', nullable: true })
  refreshTokenExpiresAt!: Date | null;

  /** The scopes Shopify granted, comma-separated as it answers them. */
  @Column({ type: 'text', nullable: true })
  scope!: string | null;

  @Column({ type: 'timestamptz', name: 'refreshed_at', nullable: true })
  refreshedAt!: Date | null;

  @Column({ type: 'integer', name: 'refresh_count' })
  refreshCount!: number;

  /** The connector's topics subscribed at the last check (`SUBSCRIBED_TOPICS`), comma-separated. */
  @Column({ type: 'text', nullable: true })
  subscriptions!: string | null;

  @Column({ type: 'timestamptz', name: 'subscriptions_checked_at', nullable: true })
  subscriptionsCheckedAt!: Date | null;

  /** Subscriptions the check created again (Shopify deletes one after 8 failed deliveries in a row). */
  @Column({ type: 'integer', name: 'subscriptions_recreated' })
  subscriptionsRecreated!: number;

  /**
   * When the shop's current installation began, as the connector saw it (the install's callback,
   * the first grant after an uninstall); null: not seen. Lifecycle deliveries triggered before it
   * are about an earlier installation (`lifecycle-staleness.ts`).
   */
  @Column({ type: 'timestamptz', name: 'installed_at', nullable: true })
  installedAt!: Date | null;

  /** Lifecycle deliveries ignored as older than the current installation. */
  @Column({ type: 'integer', name: 'ignored_deliveries' })
  ignoredDeliveries!: number;

  /** The last one: its topic, when Shopify triggered it and why it was ignored. */
  @Column({ type: 'text', name: 'last_ignored_delivery', nullable: true })
  lastIgnoredDelivery!: string | null;

  @Column({ type: 'timestamptz', name: 'updated_at' })
  updatedAt!: Date;
}
