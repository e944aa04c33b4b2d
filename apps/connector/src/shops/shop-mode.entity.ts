import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { ShopMode } from '../platform/config/shop-mode.js';

/** A shop's stored mode (`live` or `shadow`): a row of `shop_modes`; no row: `live`. */
@Entity({ name: 'shop_modes' })
export class ShopModeRow {
  @PrimaryColumn({ type: 'text' })
  shop!: string;

  @Column({ type: 'text' })
  mode!: ShopMode;

  @Column({ type: 'timestamptz', name: 'updated_at' })
  updatedAt!: Date;
}
