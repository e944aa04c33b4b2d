import { describe, expect, it } from 'vitest';
import { parsePrepareBody, trackedFileName } from './prepare-body.js';

describe('upload prepare body', () => {
  it('makes a URL-safe unique tracked name from any given name', () => {
    expect(trackedFileName('Front View.PNG', 'png', 'UP12345678')).toBe('front-view-up12345678.png');
    expect(trackedFileName('C:\\photos\\été 2026.jpeg', 'jpeg', 'UP00000001')).toBe('t-2026-up00000001.jpeg');
    expect(trackedFileName('../../etc/x.gif', 'gif', 'UP00000002')).toBe('x-up00000002.gif');
    expect(trackedFileName('.png', 'png', 'UP00000003')).toBe('image-up00000003.png');
  });

  it('defaults skuIds to none and addToMediaGallery to false', () => {
    expect(parsePrepareBody({ fileName: 'a.webp' })).toEqual({
      fileName: 'a.webp',
      extension: 'webp',
      skuIds: [],
      addToMediaGallery: false,
    });
  });
});
