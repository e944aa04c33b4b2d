import { Injectable } from '@nestjs/common';
import { Clock } from '#lib/clock';
import { PublicUrl } from '../common/public-url.js';
import type { ImageRecord } from '../products/product.model.js';
import type { Shop } from '../shops/shop.js';
import { generatePng, sniffImage } from './png.js';

export interface NewImage {
  /** The merchant's source URL. The sandbox never fetches it: it draws a PNG from it instead. */
  src?: string;
  /** Bytes given inline (REST `attachment`, base64); served as they are. */
  attachment?: Buffer;
  filename?: string;
  alt?: string | null;
  position: number;
}

/** Turns a merchant's image into a record and the bytes the sandbox's CDN serves for it. */
@Injectable()
export class ImageIngest {
  constructor(
    private readonly clock: Clock,
    private readonly publicUrl: PublicUrl,
  ) {}

  ingest(shop: Shop, image: NewImage): ImageRecord {
    const id = shop.ids.take();
    const bytes = image.attachment ?? generatePng(`${shop.domain}:${id}:${image.src ?? ''}`);
    const sniffed = sniffImage(bytes);
    const name = fileName(image, id, sniffed?.mimeType);
    const fileKey = `${id}/${name}`;
    shop.images.put(fileKey, bytes, sniffed?.mimeType ?? 'application/octet-stream');
    const now = this.clock.now();
    return {
      id,
      mediaId: shop.ids.take(),
      position: image.position,
      alt: image.alt ?? null,
      src: `${imageBaseUrl(this.publicUrl.value, shop.domain)}/${fileKey}?v=${Math.floor(now / 1000)}`,
      width: sniffed?.width ?? null,
      height: sniffed?.height ?? null,
      createdAt: now,
      updatedAt: now,
    };
  }

  discard(shop: Shop, image: ImageRecord): void {
    const key = fileKeyOf(image.src);
    if (key) shop.images.delete(key);
  }
}

export function imageBaseUrl(publicUrl: string, shopDomain: string): string {
  return `${publicUrl}/cdn/shops/${shopDomain}/files`;
}

/** `<imageId>/<name>` from an image URL the sandbox handed out, or undefined. */
export function fileKeyOf(src: string): string | undefined {
  const match = /\/cdn\/shops\/[^/]+\/files\/(\d+\/[^/?#]+)/.exec(src);
  return match?.[1];
}

/** The shop domain of an image URL the sandbox handed out, or undefined. */
export function shopOfImageUrl(src: string): string | undefined {
  return /\/cdn\/shops\/([^/]+)\/files\//.exec(src)?.[1];
}

function fileName(image: NewImage, id: number, mimeType: string | undefined): string {
  const fromSrc = image.src ? new URL(image.src).pathname.split('/').pop() : undefined;
  const raw = image.filename ?? fromSrc ?? '';
  const cleaned = raw.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[-.]+/, '');
  if (cleaned !== '') return image.attachment ? cleaned : `${cleaned.replace(/\.[A-Za-z0-9]+$/, '')}.png`;
  return `image-${id}.${mimeType === 'image/jpeg' ? 'jpg' : mimeType === 'image/gif' ? 'gif' : 'png'}`;
}
