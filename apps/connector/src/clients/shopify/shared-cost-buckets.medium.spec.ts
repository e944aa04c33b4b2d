import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mediumDatabase } from '../../../test/support/medium-database.js';
import { ShopSession } from '../../shops/shop-session.entity.js';
import { ShopSessionRepository } from '../../shops/shop-sessions.repository.js';
import { SharedCostBuckets } from './shared-cost-buckets.repository.js';
import { ShopifyCostBucketRow } from './shopify-cost-bucket.entity.js';

// The replicas' shared Shopify cost bucket on real PostgreSQL: calls take their requested cost
// only when the bucket holds it (whichever replica asks), answers give back the refund and never
// raise the level over Shopify's report, and the bucket refills at the restore rate.
const database = mediumDatabase('costbucket', [ShopifyCostBucketRow, ShopSession], { poolSize: 4 });
const { schema } = database;
let dataSource: DataSource;
const STATUS = { maximumAvailable: 2000, currentlyAvailable: 2000, restoreRate: 100 };

beforeAll(async () => {
  dataSource = await database.open();
});
afterAll(() => database.close());

describe('SharedCostBuckets', () => {
  it('lets calls go before the first report, then only as far as the bucket holds their cost', async () => {
    const buckets = new SharedCostBuckets(
      dataSource.getRepository(ShopifyCostBucketRow),
      new ShopSessionRepository(dataSource.getRepository(ShopSession)),
    );
    // Two replicas' buckets: one table.
    const other = new SharedCostBuckets(
      dataSource.getRepository(ShopifyCostBucketRow),
      new ShopSessionRepository(dataSource.getRepository(ShopSession)),
    );
    const shop = 'one.myshopify.com';
    expect(await buckets.take(shop, 962, 0)).toBe(0);
    await buckets.settle(shop, STATUS, 0, 0);
    // Concurrent takes at one instant: two fit in 2,000 points, the third waits.
    const waits = await Promise.all([
      buckets.take(shop, 962, 0),
      other.take(shop, 962, 0),
      buckets.take(shop, 962, 0),
    ]);
    expect(waits.filter((w) => w === 0)).toHaveLength(2);
    // 76 points left: 886 more at 100 a second.
    expect(waits.find((w) => w > 0)).toBe(8_860);
    // One answer: it cost 17 (refund 945), Shopify reports 1,021 (the other still running).
    await other.settle(shop, { ...STATUS, currentlyAvailable: 1_021 }, 945, 100);
    // 76 + 10 refilled + 945 = 1,031, capped by the report (1,021).
    expect(await buckets.take(shop, 962, 100)).toBe(0);
    expect(await buckets.take(shop, 962, 100)).toBe(9_030);
    // Refilled over time.
    expect(await other.take(shop, 962, 100 + 9_030)).toBe(0);
  });

  it('keeps shops apart', async () => {
    const buckets = new SharedCostBuckets(
      dataSource.getRepository(ShopifyCostBucketRow),
      new ShopSessionRepository(dataSource.getRepository(ShopSession)),
    );
    await buckets.settle('a.myshopify.com', { ...STATUS, currentlyAvailable: 0 }, 0, 0);
    await buckets.settle('b.myshopify.com', STATUS, 0, 0);
    expect(await buckets.take('a.myshopify.com', 500, 0)).toBe(5_000);
    expect(await buckets.take('b.myshopify.com', 500, 0)).toBe(0);
  });

  it('stays empty for a redacted shop: an answer to a call sent before shop/redact brings no row back', async () => {
    const buckets = new SharedCostBuckets(
      dataSource.getRepository(ShopifyCostBucketRow),
      new ShopSessionRepository(dataSource.getRepository(ShopSession)),
    );
    const shop = 'redacted.myshopify.com';
    await buckets.settle(shop, STATUS, 0, 0);
    await dataSource.query(
      `INSERT INTO "${schema}".shop_sessions (shop, auth_kind, state) VALUES ($1, 'client_credentials', 'redacted')`,
      [shop],
    );
    expect(await buckets.purgeShop(shop)).toBe(1);
    await buckets.settle(shop, STATUS, 0, 10);
    const rows = await dataSource.query(`SELECT shop FROM "${schema}".shopify_cost_buckets WHERE shop = $1`, [
      shop,
    ]);
    expect(rows).toEqual([]);
  });
});
