import { describe, expect, it } from 'vitest';
import { IMAGE_EXTENSIONS, IMAGE_MEDIA_TYPES, type ImageMediaType } from '#lib/catalog-contract';
import { sampleImage } from '#testing/catalog-sandbox';
import { extensionOf, sniffImageFormat } from './image-format.js';

const FORMATS = [...new Set(Object.values(IMAGE_MEDIA_TYPES))] as ImageMediaType[];

describe('sniffImageFormat', () => {
  it('recognises every format the catalog accepts, as the catalog sandbox writes them', () => {
    for (const format of FORMATS) expect(sniffImageFormat(sampleImage(format, 64)), format).toBe(format);
  });

  it('recognises big-endian TIFF and GIF87a', () => {
    expect(sniffImageFormat(Buffer.from([0x4d, 0x4d, 0x00, 0x2a, 0, 0, 0, 8]))).toBe('image/tiff');
    expect(sniffImageFormat(Buffer.from('GIF87a\x01\x00\x01\x00', 'latin1'))).toBe('image/gif');
  });

  it('refuses text, empty bytes, truncated headers and look-alikes', () => {
    for (const bytes of [
      Buffer.from('<!DOCTYPE html><html></html>'),
      Buffer.alloc(0),
      Buffer.from([0x89, 0x50, 0x4e, 0x47]),
      Buffer.from('BM is also how a text can start, at length'),
      Buffer.from('RIFF\x24\x00\x00\x00WAVEfmt ', 'latin1'),
      Buffer.from('%PDF-1.7'),
    ]) {
      expect(sniffImageFormat(bytes)).toBeNull();
    }
  });
});

describe('extensionOf', () => {
  it('gives an extension of the contract for each format, one whose media type is that format', () => {
    for (const format of FORMATS) {
      const extension = extensionOf(format);
      expect(IMAGE_EXTENSIONS).toContain(extension);
      expect(IMAGE_MEDIA_TYPES[extension]).toBe(format);
    }
    expect(extensionOf('image/jpeg')).toBe('jpg');
  });
});
