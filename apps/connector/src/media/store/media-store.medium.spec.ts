import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '#lib/clock';
import { uniqueId } from '#lib/testing';
import { mediumDatabase } from '../../../test/support/medium-database.js';
import { SyncRecordRow } from '../../product-sync/sync-record.entity.js';
import { SyncRecords } from '../../product-sync/sync-records.repository.js';
import type { ImageMapRow } from '../model/media-store.js';
import { PgGalleryStateRepository } from './gallery-state.repository.js';
import { PgImageMapRepository } from './image-map.repository.js';
import { MediaGalleryStateEntity } from './media-gallery-state.entity.js';
import { MediaImageMapEntity } from './media-image-map.entity.js';
import { MediaProductStatusEntity } from './media-product-status.entity.js';
import { MediaStatusRepository } from './media-status.repository.js';

// Real PostgreSQL, the connector's own migrations, in a schema of this file's own.
const database = mediumDatabase('media', [
  MediaImageMapEntity,
  MediaGalleryStateEntity,
  MediaProductStatusEntity,
  SyncRecordRow,
]);
const { schema } = database;
const clock = new ManualClock(Date.UTC(2026, 10, 23, 12));
let dataSource: DataSource;
let imageMap: PgImageMapRepository;
let galleries: PgGalleryStateRepository;
let statuses: MediaStatusRepository;

beforeAll(async () => {
  dataSource = await database.open();
  imageMap = new PgImageMapRepository(dataSource.getRepository(MediaImageMapEntity), clock);
  galleries = new PgGalleryStateRepository(dataSource.getRepository(MediaGalleryStateEntity));
  statuses = new MediaStatusRepository(
    dataSource.getRepository(MediaProductStatusEntity),
    clock,
    new SyncRecords(dataSource.getRepository(SyncRecordRow)),
  );
});

afterAll(() => database.close());

const newShop = () => `${uniqueId('shop')}.myshopify.com`;
const hash = (c: string) => c.repeat(64);
const row = (shop: string, id: number, contentHash: string, fileId: string): ImageMapRow => ({
  shop,
  shopifyMediaId: `gid://shopify/MediaImage/${id}`,
  sourceUrl: `https://cdn.shopify.com/s/files/${id}.png?v=1`,
  contentHash,
  fileId,
  byteSize: 1234,
  format: 'image/png',
});

describe('PgImageMapRepository against PostgreSQL', () => {
  it('finds rows by media id and by content hash, within the shop only', async () => {
    const shop = newShop();
    const other = newShop();
    await imageMap.upsert([row(shop, 1, hash('a'), 'IM00000001'), row(shop, 2, hash('a'), 'IM00000001')]);
    await imageMap.upsert([row(other, 1, hash('a'), 'IM00000009')]);

    const byId = await imageMap.findByMediaIds(shop, [
      'gid://shopify/MediaImage/1',
      'gid://shopify/MediaImage/7',
    ]);
    expect(byId).toEqual([row(shop, 1, hash('a'), 'IM00000001')]);
    const byHash = await imageMap.findByContentHashes(shop, [hash('a'), hash('b')]);
    expect(byHash.map((r) => r.shopifyMediaId).sort()).toEqual([
      'gid://shopify/MediaImage/1',
      'gid://shopify/MediaImage/2',
    ]);
    expect(await imageMap.findByMediaIds(shop, [])).toEqual([]);
  });

  it('replaces a row by (shop, media id) instead of duplicating it', async () => {
    const shop = newShop();
    await imageMap.upsert([row(shop, 3, hash('c'), 'IM00000003')]);
    await imageMap.upsert([row(shop, 3, hash('d'), 'IM00000004')]);

    expect(await imageMap.findByMediaIds(shop, ['gid://shopify/MediaImage/3'])).toEqual([
      row(shop, 3, hash('d'), 'IM00000004'),
    ]);
    expect(await imageMap.findByContentHashes(shop, [hash('c')])).toEqual([]);
    const { count } = (
      await dataSource.query(
        `SELECT count(*)::int AS count FROM "${schema}".media_image_map WHERE shop = $1`,
        [shop],
      )
    )[0] as { count: number };
    expect(count).toBe(1);
  });
});

describe('PgGalleryStateRepository against PostgreSQL', () => {
  it('keeps the last written gallery per record, in order', async () => {
    const shop = newShop();
    await galleries.save({ shop, skuId: 'SK00000001', media: ['IM2', 'IM1'], writtenAt: 1_000 });
    await galleries.save({ shop, skuId: 'SK00000002', media: [], writtenAt: 2_000 });
    await galleries.save({ shop, skuId: 'SK00000001', media: ['IM1', 'IM2', 'IM3'], writtenAt: 3_000 });

    const found = await galleries.find(shop, ['SK00000001', 'SK00000002', 'SK00000003']);
    expect(found.sort((a, b) => a.skuId.localeCompare(b.skuId))).toEqual([
      { shop, skuId: 'SK00000001', media: ['IM1', 'IM2', 'IM3'], writtenAt: 3_000 },
      { shop, skuId: 'SK00000002', media: [], writtenAt: 2_000 },
    ]);
    expect(await galleries.find(newShop(), ['SK00000001'])).toEqual([]);
  });
});

describe('MediaStatusRepository against PostgreSQL', () => {
  it('stores the last run and keeps when a foreign gallery was last replaced', async () => {
    const shop = newShop();
    const productId = '9007199254740993123';
    const foreign = {
      code: 'replaced-foreign-gallery' as const,
      message: 'the catalog held another gallery',
      skuId: 'SK00000001',
      lastWritten: ['IM1'],
      found: ['IM9'],
    };
    await statuses.record({
      shop,
      productId,
      notes: [foreign],
      imageFailures: [],
      images: 3,
      uploads: 0,
      writes: 1,
    });
    const replacedAt = new Date(clock.now()).toISOString();
    await clock.advance(60_000);
    const failure = {
      mediaId: 'gid://shopify/MediaImage/5',
      stage: 'fetch' as const,
      code: 'not_found',
      message: 'gone',
      retryable: false,
    };
    await statuses.record({
      shop,
      productId,
      notes: [],
      imageFailures: [failure],
      images: 3,
      uploads: 1,
      writes: 1,
    });

    expect(await statuses.get(shop, productId)).toEqual({
      shop,
      productId,
      notes: [],
      imageFailures: [failure],
      images: 3,
      uploads: 1,
      writes: 1,
      lastRunAt: new Date(clock.now()).toISOString(),
      foreignGalleryReplacedAt: replacedAt,
    });
    expect(await statuses.get(shop, '1')).toBeNull();
  });
});
