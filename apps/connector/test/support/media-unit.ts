import type { ManualClock } from '#lib/clock';
import { drive as driveClock } from '#lib/testing';
import type {
  GalleryState,
  GalleryStateRepository,
  ImageMapRepository,
  ImageMapRow,
} from '../../src/media/model/media-store.js';

/** The image map in memory, for tests (the app's is a TypeORM repository). Counts its calls. */
export class InMemoryImageMap implements ImageMapRepository {
  readonly rows = new Map<string, ImageMapRow>();
  upserts = 0;

  async findByMediaIds(shop: string, ids: readonly string[]): Promise<ImageMapRow[]> {
    return ids.flatMap((id) => {
      const row = this.rows.get(`${shop}|${id}`);
      return row ? [{ ...row }] : [];
    });
  }

  async findByContentHashes(shop: string, hashes: readonly string[]): Promise<ImageMapRow[]> {
    return [...this.rows.values()]
      .filter((r) => r.shop === shop && hashes.includes(r.contentHash))
      .map((r) => ({ ...r }));
  }

  async upsert(rows: readonly ImageMapRow[]): Promise<void> {
    this.upserts += 1;
    for (const row of rows) this.rows.set(`${row.shop}|${row.shopifyMediaId}`, { ...row });
  }
}

/** Gallery states in memory, for tests. */
export class InMemoryGalleryStates implements GalleryStateRepository {
  readonly states = new Map<string, GalleryState>();

  async find(shop: string, skuIds: readonly string[]): Promise<GalleryState[]> {
    return skuIds.flatMap((skuId) => {
      const state = this.states.get(`${shop}|${skuId}`);
      return state ? [{ ...state, media: [...state.media] }] : [];
    });
  }

  async save(state: GalleryState): Promise<void> {
    this.states.set(`${state.shop}|${state.skuId}`, { ...state, media: [...state.media] });
  }
}

/** The shared ManualClock driver, with the larger step the media polls need by default. */
export const drive = <T>(clock: ManualClock, work: Promise<T>, stepMs = 250): Promise<T> =>
  driveClock(clock, work, stepMs);
