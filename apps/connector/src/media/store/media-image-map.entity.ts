import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** One row of `media_image_map` (migration `CreateMediaImageMap1764000000020`): see `ImageMapRow`. */
@Entity({ name: 'media_image_map' })
export class MediaImageMapEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: string;

  @Column({ type: 'text' })
  shop!: string;

  /** `gid://shopify/MediaImage/<digits>` */
  @Column({ type: 'text', name: 'shopify_media_id' })
  shopifyMediaId!: string;

  @Column({ type: 'text', name: 'source_url' })
  sourceUrl!: string;

  /** SHA-256 of the bytes, lower-case hex. */
  @Column({ type: 'char', length: 64, name: 'content_hash' })
  contentHash!: string;

  @Column({ type: 'text', name: 'file_id' })
  fileId!: string;

  @Column({ type: 'integer', name: 'byte_size' })
  byteSize!: number;

  @Column({ type: 'text' })
  format!: string;

  @Column({ type: 'timestamptz', name: 'created_at' })
  createdAt!: Date;

  @Column({ type: 'timestamptz', name: 'updated_at' })
  updatedAt!: Date;
}
