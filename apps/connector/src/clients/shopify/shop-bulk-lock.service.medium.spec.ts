import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ShopBulkLock } from './shop-bulk-lock.service.js';

// One whole-shop bulk read per shop at a time, on real PostgreSQL: a second holder (another
// worker or replica: another session) is turned away while the first reads, not another shop.
describe('the per-shop bulk lock', () => {
  let dataSource: DataSource;

  beforeAll(async () => {
    dataSource = await new DataSource({
      type: 'postgres',
      url: inject('databaseUrl'),
      extra: { max: 4 },
    }).initialize();
  });
  afterAll(() => dataSource?.destroy());

  it('turns a second read of the same shop away, lets another shop read, and frees on return', async () => {
    const lock = new ShopBulkLock(dataSource);
    const shop = `lock-${process.pid}-${Date.now()}.myshopify.com`;
    const inner = await lock.withLock(
      shop,
      async () => [
        await lock.withLock(
          shop,
          async () => 'ran',
          async () => 'busy',
        ),
        await lock.withLock(
          `other-${shop}`,
          async () => 'ran',
          async () => 'busy',
        ),
      ],
      async () => ['outer busy'],
    );
    expect(inner).toEqual(['busy', 'ran']);
    expect(
      await lock.withLock(
        shop,
        async () => 'ran',
        async () => 'busy',
      ),
    ).toBe('ran');
  });

  it('frees the lock when the read throws', async () => {
    const lock = new ShopBulkLock(dataSource);
    const shop = `throw-${process.pid}-${Date.now()}.myshopify.com`;
    await expect(
      lock.withLock(
        shop,
        async () => Promise.reject(new Error('boom')),
        async () => 'busy',
      ),
    ).rejects.toThrow('boom');
    expect(
      await lock.withLock(
        shop,
        async () => 'ran',
        async () => 'busy',
      ),
    ).toBe('ran');
  });
});
