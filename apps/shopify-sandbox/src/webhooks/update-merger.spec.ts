import { describe, expect, it } from 'vitest';
import { ManualClock } from '#lib/clock';
import type { ProductRecord } from '../products/product.model.js';
import type { ProductEvent, ProductEventType } from '../products/product.store.js';
import type { Shop } from '../shops/shop.js';
import { UpdateMerger, type UpdateMergerSettings } from './update-merger.js';

const shop = {} as Shop;
const event = (type: ProductEventType, id: number, title: string): ProductEvent => ({
  type,
  product: { id, title } as ProductRecord,
  at: 0,
});

function merger(settings: UpdateMergerSettings) {
  const clock = new ManualClock();
  const sent: string[] = [];
  const work: Promise<void>[] = [];
  const instance = new UpdateMerger(
    clock,
    settings,
    (_shop, e) => sent.push(`${e.type} ${e.product.id} ${e.product.title}`),
    (w) => work.push(w),
  );
  return { clock, sent, instance };
}

describe('UpdateMerger', () => {
  it('sends a create at once, then one update per product with the latest state after the window', async () => {
    const { clock, sent, instance } = merger({ mergeWindowMs: 300, updateAfterCreate: true });
    instance.accept(shop, event('create', 1, 'new'));
    instance.accept(shop, event('update', 1, 'a'));
    instance.accept(shop, event('update', 2, 'x'));
    instance.accept(shop, event('update', 1, 'b'));
    expect(sent).toEqual(['create 1 new']);
    await clock.advance(299);
    expect(sent).toEqual(['create 1 new']);
    await clock.advance(1);
    expect(sent).toEqual(['create 1 new', 'update 1 b', 'update 2 x']);
  });

  it('sends a waiting update before the delete of its product, and on flush', async () => {
    const { sent, instance } = merger({ mergeWindowMs: 300, updateAfterCreate: false });
    instance.accept(shop, event('update', 1, 'a'));
    instance.accept(shop, event('update', 2, 'x'));
    instance.accept(shop, event('delete', 1, 'a'));
    expect(sent).toEqual(['update 1 a', 'delete 1 a']);
    instance.flush(shop);
    expect(sent).toEqual(['update 1 a', 'delete 1 a', 'update 2 x']);
  });

  it('sends every write at once with a window of 0, and no update after a create when switched off', () => {
    const { sent, instance } = merger({ mergeWindowMs: 0, updateAfterCreate: false });
    instance.accept(shop, event('create', 1, 'new'));
    instance.accept(shop, event('update', 1, 'a'));
    instance.accept(shop, event('update', 1, 'b'));
    expect(sent).toEqual(['create 1 new', 'update 1 a', 'update 1 b']);
  });
});
