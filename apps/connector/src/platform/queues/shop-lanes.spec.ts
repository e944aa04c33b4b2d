import { describe, expect, it } from 'vitest';
import { LANE_WINDOW_MS, type Lane, lanePriority, ShopLanes } from './shop-lanes.js';

interface Request {
  shop: string;
  id: string;
  lane: Lane;
}

const req = (shop: string, id: string, lane: Lane = 'live'): Request => ({ shop, id, lane });
const laneOf = (r: Request) => r.lane;
const turns = (lanes: ShopLanes, items: Request[], now = 0) =>
  lanes.take(items, laneOf, now).map(({ item, turn }) => `${item.shop}:${item.id}@${turn}`);

describe('ShopLanes', () => {
  it("numbers each shop's requests in its own line, and orders a batch round-robin by shop", () => {
    const lanes = new ShopLanes();
    const batch = [req('a', '1'), req('a', '2'), req('a', '3'), req('b', '1'), req('c', '1'), req('b', '2')];
    expect(turns(lanes, batch)).toEqual(['a:1@0', 'b:1@0', 'c:1@0', 'a:2@1', 'b:2@1', 'a:3@2']);
    // The next batch goes on from each shop's count.
    expect(turns(lanes, [req('a', '4'), req('d', '1')])).toEqual(['a:4@3', 'd:1@0']);
  });

  it('counts the live and the bulk lane apart', () => {
    const lanes = new ShopLanes();
    const bulk = Array.from({ length: 3 }, (_, i) => req('a', `r${i}`, 'bulk'));
    expect(turns(lanes, bulk)).toEqual(['a:r0@0', 'a:r1@1', 'a:r2@2']);
    expect(turns(lanes, [req('a', 'edit')])).toEqual(['a:edit@0']);
  });

  it('forgets requests older than the window, a bucket at a time', () => {
    const lanes = new ShopLanes();
    turns(lanes, [req('a', '1'), req('a', '2')], 0);
    turns(lanes, [req('a', '3')], LANE_WINDOW_MS / 2);
    // Still within the window: three before it.
    expect(turns(lanes, [req('a', '4')], LANE_WINDOW_MS - 1)).toEqual(['a:4@3']);
    // The first bucket has left the window: the two requests at 0 no longer count.
    expect(turns(lanes, [req('a', '5')], LANE_WINDOW_MS)).toEqual(['a:5@2']);
    // A minute of quiet: the shop starts again at 0.
    expect(turns(lanes, [req('a', '6')], 3 * LANE_WINDOW_MS)).toEqual(['a:6@0']);
  });

  it('prunes the counters of shops gone quiet once it holds many', () => {
    const lanes = new ShopLanes();
    for (let i = 0; i <= 1_000; i++) turns(lanes, [req(`shop-${i}`, '1')], 0);
    expect(lanes.size).toBe(1_001);
    turns(lanes, [req('late', '1')], 2 * LANE_WINDOW_MS);
    expect(lanes.size).toBe(1);
  });

  it("bounds another shop's wait: ordered as the backends order by priority, a lone edit comes after one job of the big shop", () => {
    const lanes = new ShopLanes();
    // Shop a queues 300 resync syncs, then a storm of 200 edits; then shop b's merchant saves once.
    const queued = [
      ...lanes.take(
        Array.from({ length: 300 }, (_, i) => req('a', `r${i}`, 'bulk')),
        laneOf,
        0,
      ),
      ...Array.from({ length: 10 }, (_, k) =>
        lanes.take(
          Array.from({ length: 20 }, (_, i) => req('a', `w${k * 20 + i}`)),
          laneOf,
          100 + k,
        ),
      ).flat(),
      ...lanes.take([req('b', 'edit')], laneOf, 200),
    ].map(({ item, turn }, seq) => ({ item, priority: lanePriority(item.lane, turn), seq }));
    // BullMQ (Redis and PostgreSQL): the lowest priority first, then the order of adding.
    const order = [...queued].sort((x, y) => x.priority - y.priority || x.seq - y.seq).map((q) => q.item);
    const edit = order.findIndex((r) => r.shop === 'b');
    expect(edit).toBe(1);
    // Within shop a, every live edit still runs before its bulk work.
    const firstBulk = order.findIndex((r) => r.lane === 'bulk');
    expect(order.slice(firstBulk).every((r) => r.lane === 'bulk')).toBe(true);
    expect(firstBulk).toBe(201);
  });
});
