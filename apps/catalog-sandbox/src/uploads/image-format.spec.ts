import { describe, expect, it } from 'vitest';
import { sampleImage } from '../testing/sample-images.js';
import { contentTypeMatches, imageExtensionOf, sniffImageFormat } from './image-format.js';

describe('image formats', () => {
  it('knows the spec extensions in any case, and nothing else', () => {
    expect(imageExtensionOf('front.JPG')).toBe('jpg');
    expect(imageExtensionOf('a.b.tiff')).toBe('tiff');
    expect(imageExtensionOf('scan.tif')).toBeNull();
    expect(imageExtensionOf('jpg')).toBeNull();
    expect(imageExtensionOf('notes.txt')).toBeNull();
  });

  it('recognises each format by its magic number', () => {
    for (const format of [
      'image/jpeg',
      'image/png',
      'image/gif',
      'image/webp',
      'image/bmp',
      'image/tiff',
    ] as const) {
      expect(sniffImageFormat(sampleImage(format))).toBe(format);
    }
  });

  it('refuses bytes that are no image, or only the start of a signature', () => {
    expect(sniffImageFormat(Buffer.from('hello world'))).toBeNull();
    expect(sniffImageFormat(Buffer.from([0x89, 0x50, 0x4e]))).toBeNull();
    expect(sniffImageFormat(Buffer.from('RIFF\0\0\0\0WAVE'))).toBeNull();
    expect(sniffImageFormat(Buffer.from('BM is not enough'))).toBeNull();
    expect(sniffImageFormat(new Uint8Array())).toBeNull();
  });

  it('matches Content-Type by media type, ignoring case and parameters', () => {
    expect(contentTypeMatches('image/JPEG; charset=binary', 'image/jpeg')).toBe(true);
    expect(contentTypeMatches('image/jpg', 'image/jpeg')).toBe(true);
    expect(contentTypeMatches('image/png', 'image/jpeg')).toBe(false);
    expect(contentTypeMatches(undefined, 'image/png')).toBe(false);
  });
});
