import { IMAGE_MEDIA_TYPES, imageExtensionOf } from '#lib/catalog-contract';

/** The media type for an image file name (the spec's extensions); `application/octet-stream` otherwise. */
export function contentTypeFor(fileName: string): string {
  const extension = imageExtensionOf(fileName);
  return extension ? IMAGE_MEDIA_TYPES[extension] : 'application/octet-stream';
}
