import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { GalleryNote } from '../plan/desired-galleries.js';

/** An image left out of the catalog at the last run, and why (a `MediaError`, as stored). */
export interface StoredImageFailure {
  mediaId: string;
  stage: 'fetch' | 'upload' | 'not-ready';
  code: string;
  message: string;
  retryable: boolean;
}

/** One row of `media_product_status` (migration `CreateMediaProductStatus1764000000022`). */
@Entity({ name: 'media_product_status' })
export class MediaProductStatusEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: string;

  @Column({ type: 'text' })
  shop!: string;

  /** Shopify's numeric product id (bigint: ids can pass 2^53). */
  @Column({ type: 'bigint', name: 'shopify_product_id' })
  shopifyProductId!: string;

  /** The last run's notes (`replaced-foreign-gallery`, `variant-inheritance-broken`, ...). */
  @Column({ type: 'jsonb' })
  notes!: GalleryNote[];

  @Column({ type: 'jsonb', name: 'image_failures' })
  imageFailures!: StoredImageFailure[];

  /** Images of the product at the last run. */
  @Column({ type: 'integer' })
  images!: number;

  /** Uploads the last run made. */
  @Column({ type: 'integer' })
  uploads!: number;

  /** `media` PATCHes the last run made. */
  @Column({ type: 'integer' })
  writes!: number;

  @Column({ type: 'timestamptz', name: 'last_run_at' })
  lastRunAt!: Date;

  /** The last time the connector replaced a gallery it had not written (kept across runs). */
  @Column({ type: 'timestamptz', name: 'foreign_gallery_replaced_at', nullable: true })
  foreignGalleryReplacedAt!: Date | null;
}
