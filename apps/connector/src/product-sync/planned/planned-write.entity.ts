import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** One write a shop in `shadow` would have sent: a row of `planned_writes`. */
@Entity({ name: 'planned_writes' })
export class PlannedWriteRow {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: string;

  @Column({ type: 'text' })
  shop!: string;

  @Column({ type: 'text', name: 'product_id' })
  productId!: string;

  /** Who planned it: `sync` (catalog calls), `media` (uploads), `write-back` (Shopify mutations). */
  @Column({ type: 'text' })
  source!: string;

  /** Its place in the product's plan (the order live would send them in). */
  @Column({ type: 'integer' })
  seq!: number;

  /** The call: `createProduct`, `updateVariant`, `deleteProduct`, ... */
  @Column({ type: 'text' })
  kind!: string;

  @Column({ type: 'text' })
  method!: string;

  @Column({ type: 'text' })
  path!: string;

  @Column({ type: 'text', name: 'supplier_sku', nullable: true })
  supplierSku!: string | null;

  /** The request body live would send (null: a DELETE). */
  @Column({ type: 'jsonb', nullable: true })
  body!: Record<string, unknown> | null;

  /** The record's values before the write (null: it does not exist yet). */
  @Column({ type: 'jsonb', nullable: true })
  before!: Record<string, unknown> | null;

  /** The record's values once written (null: it is deleted). */
  @Column({ type: 'jsonb', nullable: true })
  after!: Record<string, unknown> | null;

  /** The mapping gaps of the record it writes (`attribute` names each; empty: none). */
  @Column({ type: 'jsonb', default: () => "'[]'::jsonb" })
  gaps!: Array<{ attribute: string; entry: string; message: string }>;

  @Column({ type: 'timestamptz', name: 'planned_at' })
  plannedAt!: Date;
}
