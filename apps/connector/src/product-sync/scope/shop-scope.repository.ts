import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { Clock } from '#lib/clock';
import { ShopScopeRow } from './shop-scope.entity.js';

/** Why: the `shop_scope` table's only owner: the scope each shop last applied, and walk results. */
@Injectable()
export class ShopScopeRepository {
  constructor(
    @InjectRepository(ShopScopeRow) private readonly rows: Repository<ShopScopeRow>,
    private readonly clock: Clock,
  ) {}

  /** `shop/redact`: forgets the shop's applied scope; resolves to how many rows went. */
  async purgeShop(shop: string): Promise<number> {
    return (await this.rows.delete({ shop })).affected ?? 0;
  }

  /** The shop's last applied scope key, or null before its first boot with this table. */
  async appliedKey(shop: string): Promise<string | null> {
    return (await this.rows.findOneBy({ shop }))?.scopeKey ?? null;
  }

  /** Records the scope now applied; a changed scope forgets the collection walks' members. */
  async apply(shop: string, scopeKey: string): Promise<void> {
    const now = new Date(this.clock.now());
    const existing = await this.rows.findOneBy({ shop });
    const members = existing?.scopeKey === scopeKey ? existing.collectionMembers : {};
    await this.rows.upsert({ shop, scopeKey, collectionMembers: members, appliedAt: now }, ['shop']);
  }

  /** The members of a collection at its last walk (null: never walked under this scope). */
  async members(shop: string, collectionId: string): Promise<Set<string> | null> {
    const row = await this.rows.findOneBy({ shop });
    const list = row?.collectionMembers[collectionId];
    return list ? new Set(list) : null;
  }

  /** Stores a collection's members after a walk (the shop's scope must be applied first). */
  async setMembers(shop: string, collectionId: string, members: readonly string[]): Promise<void> {
    await this.rows.query(
      `UPDATE ${this.rows.metadata.tablePath}
          SET collection_members = jsonb_set(collection_members, ARRAY[$2::text], $3::jsonb)
        WHERE shop = $1`,
      [shop, collectionId, JSON.stringify([...members])],
    );
  }
}
