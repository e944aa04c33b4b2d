import { IMAGE_MEDIA_TYPES, type ImageExtension, type ImageMediaType } from '#lib/catalog-contract';

export { type ImageExtension, imageExtensionOf } from '#lib/catalog-contract';

/** The image formats the upload flow accepts, by media type. */
export type ImageFormat = ImageMediaType;

/** Content types an object-store PUT may declare for each format (aliases seen in the wild). */
const CONTENT_TYPES: Record<ImageFormat, readonly string[]> = {
  'image/jpeg': ['image/jpeg', 'image/jpg', 'image/pjpeg'],
  'image/png': ['image/png'],
  'image/gif': ['image/gif'],
  'image/webp': ['image/webp'],
  'image/bmp': ['image/bmp', 'image/x-bmp', 'image/x-ms-bmp'],
  'image/tiff': ['image/tiff', 'image/tiff-fx'],
};

/** The media type of an accepted extension. */
export function formatOfExtension(ext: ImageExtension): ImageFormat {
  return IMAGE_MEDIA_TYPES[ext];
}

/** Whether a Content-Type header (parameters ignored, any case) names the given format. */
export function contentTypeMatches(header: string | undefined, format: ImageFormat): boolean {
  if (!header) return false;
  const mediaType = (header.split(';')[0] ?? '').trim().toLowerCase();
  return CONTENT_TYPES[format].includes(mediaType);
}

const startsWith = (bytes: Uint8Array, signature: readonly number[], offset = 0): boolean =>
  bytes.length >= offset + signature.length && signature.every((b, i) => bytes[offset + i] === b);

const ascii = (text: string): number[] => [...text].map((c) => c.charCodeAt(0));

/**
 * The format the bytes really are, read from their magic numbers, or null when they are none
 * of the accepted formats. Only the header is checked, not that the whole file decodes.
 */
export function sniffImageFormat(bytes: Uint8Array): ImageFormat | null {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) return 'image/gif';
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'image/webp';
  // BMP: "BM", then the file size (4 bytes), two reserved words, the pixel-data offset; the
  // DIB header size at 14 is one of the known header sizes.
  if (startsWith(bytes, ascii('BM')) && bytes.length >= 18 && BMP_HEADER_SIZES.has(readUint32LE(bytes, 14)))
    return 'image/bmp';
  if (startsWith(bytes, [0x49, 0x49, 0x2a, 0x00]) || startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2a]))
    return 'image/tiff';
  return null;
}

const BMP_HEADER_SIZES = new Set([12, 40, 52, 56, 64, 108, 124]);

function readUint32LE(bytes: Uint8Array, at: number): number {
  return (
    ((bytes[at] ?? 0) | ((bytes[at + 1] ?? 0) << 8) | ((bytes[at + 2] ?? 0) << 16)) +
    (bytes[at + 3] ?? 0) * 2 ** 24
  );
}
