import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { AttributeSnapshot, MappingGap, PlanNote, RecordKind } from '../plan/index.js';

/**
 * Where a row's catalog record stands. `pending-create`: the create was (about to be) sent, its
 * outcome unknown: find the record by `supplierSku` before ever creating again. `live`: the
 * record exists, `skuId` known. `tombstoned`: deleted on purpose (Shopify delete, variant
 * removed), for good. `gone-from-catalog`: deleted in the catalog behind the connector's back;
 * recreated by the next sync.
 */
export type SkuMapState = 'pending-create' | 'live' | 'tombstoned' | 'gone-from-catalog';

/** One row of the sku map (migration `CreateSkuMap1764000000004`); ids are decimal strings. */
@Entity({ name: 'sku_map' })
export class SkuMapRow {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: string;

  @Column({ type: 'text' })
  shop!: string;

  /** Shopify's numeric product id (bigint: ids can pass 2^53). */
  @Column({ type: 'bigint', name: 'shopify_product_id' })
  shopifyProductId!: string;

  /** Null on the product's own row (simple or parent). */
  @Column({ type: 'bigint', name: 'shopify_variant_id', nullable: true })
  shopifyVariantId!: string | null;

  @Column({ type: 'text' })
  kind!: RecordKind;

  /**
   * On the parents of a product split into groups (over 200 variants, migration
   * `SkuMapVariantGroups1764000000075`): the group's key; null otherwise.
   */
  @Column({ type: 'text', name: 'variant_group', nullable: true })
  variantGroup!: string | null;

  @Column({ type: 'text', name: 'supplier_sku' })
  supplierSku!: string;

  /** On variant rows: the parent's supplierSku (what `POST /v1/variants` names). */
  @Column({ type: 'text', name: 'parent_supplier_sku', nullable: true })
  parentSupplierSku!: string | null;

  /** The catalog's id; null while a create is pending or after the record was found gone. */
  @Column({ type: 'text', name: 'sku_id', nullable: true })
  skuId!: string | null;

  @Column({ type: 'text' })
  state!: SkuMapState;

  /** Every attribute as last applied (the planner diffs against it). */
  @Column({ type: 'jsonb' })
  snapshot!: AttributeSnapshot;

  /** What the record was built from (`Dependency` strings) and their hash: configuration drift. */
  @Column({ type: 'jsonb', name: 'configuration_dependencies', nullable: true })
  configurationDependencies!: string[] | null;

  @Column({ type: 'text', name: 'configuration_hash', nullable: true })
  configurationHash!: string | null;

  /** Shopify's `updatedAt` of the product or variant last applied. */
  @Column({ type: 'timestamptz', name: 'shopify_updated_at', nullable: true })
  shopifyUpdatedAt!: Date | null;

  /** Attributes left out of the record (unknown values): shown in the product's status, retried on drift. */
  @Column({ type: 'jsonb' })
  gaps!: MappingGap[];

  /** What the product's status should say about this record (e.g. enrichment will fail). */
  @Column({ type: 'jsonb' })
  notes!: PlanNote[];

  @Column({ type: 'timestamptz', name: 'created_at' })
  createdAt!: Date;

  @Column({ type: 'timestamptz', name: 'updated_at' })
  updatedAt!: Date;

  /** When a catalog call last applied the snapshot. */
  @Column({ type: 'timestamptz', name: 'applied_at', nullable: true })
  appliedAt!: Date | null;

  @Column({ type: 'timestamptz', name: 'tombstoned_at', nullable: true })
  tombstonedAt!: Date | null;
}
