export type ImageFault = '404' | 'not-an-image';

export const IMAGE_FAULTS: readonly ImageFault[] = ['404', 'not-an-image'];

interface StoredImage {
  bytes: Buffer;
  mimeType: string;
  fault?: ImageFault;
}

/**
 * Bytes behind the image URLs of one shop, as Shopify's CDN serves them, keyed by the URL's
 * file key (`<imageId>/<name>`). A test can break one URL: a 404 or bytes that are not an image.
 */
export class ImageStore {
  private readonly images = new Map<string, StoredImage>();

  put(fileKey: string, bytes: Buffer, mimeType: string): void {
    this.images.set(fileKey, { bytes, mimeType });
  }

  get(fileKey: string): StoredImage | undefined {
    return this.images.get(fileKey);
  }

  /** Sets or clears (`null`) the fault of one image; false when the key is unknown. */
  setFault(fileKey: string, fault: ImageFault | null): boolean {
    const image = this.images.get(fileKey);
    if (!image) return false;
    image.fault = fault ?? undefined;
    return true;
  }

  delete(fileKey: string): void {
    this.images.delete(fileKey);
  }
}
