import { Injectable, Logger } from '@nestjs/common';
import { CatalogLimits } from '#lib/catalog-contract';
import { Clock } from '#lib/clock';
import { AccountRegistry } from '../accounts/account.registry.js';
import { PlatformIdGenerator } from '../ids/platform-id.generator.js';
import type { Upload, UploadApplication } from './upload.js';

/**
 * Ends an upload's processing: gives the image its id (`IM` + 8 digits), then applies the
 * prepare call's `skuIds` and `addToMediaGallery`: the image is appended to each record's own
 * `media` (a variant thereby gets its own gallery), never beyond 100 images.
 */
@Injectable()
export class UploadProcessor {
  private readonly logger = new Logger('CatalogSandbox');

  constructor(
    private readonly clock: Clock,
    private readonly ids: PlatformIdGenerator,
    private readonly registry: AccountRegistry,
  ) {}

  /** Completes the upload after `delayMs` of the sandbox clock. */
  schedule(upload: Upload, delayMs: number): void {
    this.clock
      .sleep(delayMs)
      .then(() => this.complete(upload))
      .catch((error: unknown) =>
        this.logger.error(`Upload ${upload.uploadId} failed to complete`, (error as Error)?.stack),
      );
  }

  complete(upload: Upload): void {
    if (upload.state !== 'processing') return;
    const now = this.clock.now();
    upload.fileId = this.ids.next('IM');
    upload.completedAt = now;
    upload.state = 'complete';
    const alive = this.registry.get(upload.account.id) === upload.account;
    upload.applied = alive ? upload.skuIds.map((skuId) => this.apply(upload, skuId, now)) : [];
  }

  private apply(upload: Upload, skuId: string, now: number): UploadApplication {
    const product = upload.account.products.get(skuId);
    if (!product) return { skuId, result: 'record_deleted' };
    if (!upload.addToMediaGallery) return { skuId, result: 'not_added' };
    const fileId = upload.fileId as string;
    const current = product.attributes.get('media')?.value;
    const gallery = Array.isArray(current) ? current : [];
    if (gallery.includes(fileId)) return { skuId, result: 'already_present' };
    if (gallery.length >= CatalogLimits.MEDIA_PER_PRODUCT) return { skuId, result: 'gallery_full' };
    product.attributes.set('media', { value: [...gallery, fileId] });
    if (product.parentSkuId !== null) product.ownMedia = true;
    product.updatedAt = Math.max(now, product.updatedAt + 1);
    return { skuId, result: 'added' };
  }
}
