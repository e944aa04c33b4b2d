import { describe, expect, it } from 'vitest';
import { generatePng, sniffImage } from './png.js';

describe('generatePng', () => {
  it('makes a PNG of the asked size that the sniffer reads back', () => {
    const png = generatePng('seed', 32, 16);
    expect(sniffImage(png)).toEqual({ mimeType: 'image/png', width: 32, height: 16 });
  });

  it('gives different seeds different bytes, and the same seed the same bytes', () => {
    expect(generatePng('a').equals(generatePng('a'))).toBe(true);
    expect(generatePng('a').equals(generatePng('b'))).toBe(false);
  });

  it('does not take text for an image', () => {
    expect(sniffImage(Buffer.from('<html>not an image</html>'))).toBeUndefined();
  });
});
