import { describe, expect, it } from 'vitest';
import type { FetchedImage } from '../fetch/safe-image-fetcher.js';
import type { ImageMapRow } from '../model/media-store.js';
import { planImageWork, planUploads } from './plan-image-work.js';

const SHOP = 'demo.myshopify.com';
const media = (n: number) => `gid://shopify/MediaImage/${n}`;
const url = (n: number, v = 1) => `https://cdn.shopify.com/s/files/${n}.png?v=${v}`;

function row(n: number, fileId: string, hash = `hash-${n}`, v = 1): ImageMapRow {
  return {
    shop: SHOP,
    shopifyMediaId: media(n),
    sourceUrl: url(n, v),
    contentHash: hash,
    fileId,
    byteSize: 10,
    format: 'image/png',
  };
}

function fetched(n: number, hash: string, v = 1): { mediaId: string; image: FetchedImage } {
  return {
    mediaId: media(n),
    image: {
      url: url(n, v),
      finalUrl: url(n, v),
      bytes: Buffer.from(hash),
      format: 'image/png',
      extension: 'png',
      contentHash: hash,
      size: 10,
    },
  };
}

describe('planImageWork', () => {
  const images = [1, 2, 3, 4].map((n) => ({
    id: media(n),
    alt: null,
    url: n === 4 ? null : url(n, n === 2 ? 2 : 1),
  }));

  it('knows images whose media id and URL the map holds; fetches new and changed ones; waits for unprocessed ones', () => {
    const work = planImageWork(images, new Set([media(1), media(2), media(3), media(4)]), [
      row(1, 'IM00000001'),
      row(2, 'IM00000002'),
    ]);
    expect(work.known).toEqual(new Map([[media(1), 'IM00000001']]));
    expect(work.toFetch).toEqual([
      { mediaId: media(2), url: url(2, 2), previous: row(2, 'IM00000002') },
      { mediaId: media(3), url: url(3), previous: null },
    ]);
    expect(work.notReady).toEqual([{ mediaId: media(4), previous: null }]);
  });

  it('leaves out images no gallery needs', () => {
    const work = planImageWork(images, new Set([media(1)]), []);
    expect(work.toFetch.map((f) => f.mediaId)).toEqual([media(1)]);
    expect(work.notReady).toEqual([]);
  });
});

describe('planUploads', () => {
  it('reuses the fileId of known bytes, and uploads the same new bytes once for two media ids', () => {
    const plan = planUploads(
      SHOP,
      [fetched(1, 'aaa'), fetched(2, 'bbb'), fetched(3, 'bbb'), fetched(4, 'ccc')],
      [row(9, 'IM00000009', 'aaa')],
    );
    expect(plan.reused).toEqual([{ ...row(1, 'IM00000009', 'aaa') }]);
    expect(plan.uploads.map((u) => [u.contentHash, u.members.map((m) => m.mediaId)])).toEqual([
      ['bbb', [media(2), media(3)]],
      ['ccc', [media(4)]],
    ]);
  });
});
