import {
  IMAGE_EXTENSIONS,
  IMAGE_MEDIA_TYPES,
  type ImageExtension,
  type ImageMediaType,
} from '#lib/catalog-contract';

const ascii = (text: string): number[] => [...text].map((c) => c.charCodeAt(0));

function startsWith(bytes: Uint8Array, signature: readonly number[], offset = 0): boolean {
  if (bytes.length < offset + signature.length) return false;
  return signature.every((b, i) => bytes[offset + i] === b);
}

// BMP: "BM", file size, two reserved words, pixel-data offset, then the DIB header whose size
// (at byte 14) is one of the known header sizes; "BM" alone is too common in text.
const BMP_HEADER_SIZES = new Set([12, 40, 52, 56, 64, 108, 124]);

/**
 * The catalog format the bytes really are, read from their magic numbers (the formats of the
 * spec's upload extensions: jpg/jpeg, png, gif, webp, bmp, tiff), or null. Only the header is
 * checked, which is what the object store checks too; an HTML error page labelled `image/png`
 * is null.
 */
export function sniffImageFormat(bytes: Uint8Array): ImageMediaType | null {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return IMAGE_MEDIA_TYPES.jpeg;
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return IMAGE_MEDIA_TYPES.png;
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) return IMAGE_MEDIA_TYPES.gif;
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return IMAGE_MEDIA_TYPES.webp;
  if (startsWith(bytes, ascii('BM')) && bytes.length >= 18) {
    const dibSize =
      (bytes[14] ?? 0) | ((bytes[15] ?? 0) << 8) | ((bytes[16] ?? 0) << 16) | ((bytes[17] ?? 0) << 24);
    if (BMP_HEADER_SIZES.has(dibSize)) return IMAGE_MEDIA_TYPES.bmp;
  }
  if (startsWith(bytes, [0x49, 0x49, 0x2a, 0x00]) || startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2a]))
    return IMAGE_MEDIA_TYPES.tiff;
  return null;
}

/** The file extension the upload's file name gets for a format: the first one the contract lists. */
export function extensionOf(format: ImageMediaType): ImageExtension {
  const found = IMAGE_EXTENSIONS.find((extension) => IMAGE_MEDIA_TYPES[extension] === format);
  if (!found) throw new Error(`no image extension for ${format}`);
  return found;
}
