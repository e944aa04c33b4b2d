import type { ImageFormat } from '../uploads/image-format.js';

const HEADERS: Record<ImageFormat, number[]> = {
  'image/jpeg': [0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, ...ascii('JFIF'), 0x00],
  'image/png': [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, ...ascii('IHDR')],
  'image/gif': [...ascii('GIF89a'), 0x01, 0x00, 0x01, 0x00],
  'image/webp': [...ascii('RIFF'), 0x24, 0x00, 0x00, 0x00, ...ascii('WEBPVP8 ')],
  // "BM", file size, reserved, pixel offset 54, then a 40-byte BITMAPINFOHEADER.
  'image/bmp': [...ascii('BM'), 0x3a, 0, 0, 0, 0, 0, 0, 0, 0x36, 0, 0, 0, 0x28, 0, 0, 0],
  'image/tiff': [0x49, 0x49, 0x2a, 0x00, 0x08, 0x00, 0x00, 0x00],
};

/**
 * Bytes that start like a real file of the format (its magic number and first header fields),
 * padded to `size` with a pattern: enough for the sandbox's format check, not a decodable image.
 */
export function sampleImage(format: ImageFormat, size = 256): Buffer {
  const header = HEADERS[format];
  const bytes = Buffer.alloc(Math.max(size, header.length));
  bytes.set(header, 0);
  for (let i = header.length; i < bytes.length; i++) bytes[i] = (i * 31) & 0xff;
  return bytes;
}

function ascii(text: string): number[] {
  return [...text].map((c) => c.charCodeAt(0));
}
