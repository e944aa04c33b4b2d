import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** One row of `media_gallery_state` (migration `CreateMediaGalleryState1764000000021`): see `GalleryState`. */
@Entity({ name: 'media_gallery_state' })
export class MediaGalleryStateEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: string;

  @Column({ type: 'text' })
  shop!: string;

  @Column({ type: 'text', name: 'sku_id' })
  skuId!: string;

  /** The fileIds in gallery order. */
  @Column({ type: 'jsonb' })
  media!: string[];

  /** Epoch ms of the write (the injected clock); bigint comes back as a decimal string. */
  @Column({ type: 'bigint', name: 'written_at' })
  writtenAt!: string;
}
