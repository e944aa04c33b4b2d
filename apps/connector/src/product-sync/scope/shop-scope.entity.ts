import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A shop's last applied product scope (migration `CreateShopScope1764000000070`). */
@Entity({ name: 'shop_scope' })
export class ShopScopeRow {
  @PrimaryColumn({ type: 'text' })
  shop!: string;

  /** `scopeKey` of the scope applied last. */
  @Column({ type: 'text', name: 'scope_key' })
  scopeKey!: string;

  /** Per scoped collection gid, the numeric ids of its products at its last walk. */
  @Column({ type: 'jsonb', name: 'collection_members' })
  collectionMembers!: Record<string, string[]>;

  @Column({ type: 'timestamptz', name: 'applied_at' })
  appliedAt!: Date;
}
