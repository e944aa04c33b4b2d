import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '#lib/clock';
import { uniqueId } from '#lib/testing';
import { mediumDatabase } from '../../test/support/medium-database.js';
import type { SyncEnqueuer } from '../intake/sync-enqueuer.service.js';
import type { ShopMappings } from '../mapping/shop-mappings.service.js';
import type { ValidatedMapping } from '../mapping/validated-mapping.js';
import type { SyncProductPayload } from '../platform/queues/job-payloads.js';
import { DriftScanner } from './drift-scanner.service.js';
import { SkuMapRepository } from './sku-map/sku-map.repository.js';
import { SkuMapRow } from './sku-map/sku-map-row.entity.js';

// Real PostgreSQL: the drift check compares each distinct configuration the records were built
// with (grouped in the database), then resyncs exactly the products with a record on a stale one.
const database = mediumDatabase('driftscan', [SkuMapRow], { poolSize: 2 });
const clock = new ManualClock(Date.UTC(2026, 10, 27, 12));
let dataSource: DataSource;
let map: SkuMapRepository;

beforeAll(async () => {
  dataSource = await database.open();
  map = new SkuMapRepository(dataSource.getRepository(SkuMapRow), clock);
});

afterAll(() => database.close());

const PRODUCT_ENTRIES = ['["entries","product"]'];
const WITH_DROPDOWN = ['["entries","product"]', '["definition","color"]'];

/** A live record of `productId` built on `dependencies`, which hashed to `hash` then. */
async function liveRecord(
  shop: string,
  productId: string,
  sku: string,
  dependencies: string[],
  hash: string,
) {
  await map.recordIntent({
    shop,
    productId,
    kind: 'parent',
    shopifyVariantId: null,
    supplierSku: sku,
    parentSupplierSku: null,
  });
  await map.markLive(shop, sku, `id-${sku}`, {
    kind: 'parent',
    parentSupplierSku: null,
    snapshot: { name: sku },
    shopifyUpdatedAt: '2026-11-27T12:00:00Z',
    configuration: { dependencies, hash },
    gaps: [],
  });
}

describe('DriftScanner against PostgreSQL', () => {
  it('groups the records by configuration and resyncs only the products built on a changed one', async () => {
    const shop = `${uniqueId('shop')}.myshopify.com`;
    await liveRecord(shop, '101', 'a-101', PRODUCT_ENTRIES, 'entries-v1');
    await liveRecord(shop, '102', 'a-102', PRODUCT_ENTRIES, 'entries-v1');
    await liveRecord(shop, '103', 'a-103', WITH_DROPDOWN, 'dropdown-v1');
    await liveRecord(shop, '104', 'a-104', PRODUCT_ENTRIES, 'entries-v0');
    // Another shop's record on the stale configuration is not this shop's drift.
    await liveRecord(`${uniqueId('other')}.myshopify.com`, '105', 'a-105', WITH_DROPDOWN, 'dropdown-v1');

    const groups = await map.configurationGroups(shop);
    expect(groups.map((g) => `${g.dependencies.join('+')}=${g.hash}`).sort()).toEqual(
      [
        `${PRODUCT_ENTRIES.join('+')}=entries-v0`,
        `${PRODUCT_ENTRIES.join('+')}=entries-v1`,
        `${WITH_DROPDOWN.join('+')}=dropdown-v1`,
      ].sort(),
    );

    // The account's DROPDOWN values changed: records on it hash differently now.
    const hashed: string[][] = [];
    const mapping = {
      configurationHash: (dependencies: string[]) => {
        hashed.push(dependencies);
        return dependencies.length === 2 ? 'dropdown-v2' : 'entries-v1';
      },
    } as unknown as ValidatedMapping;
    const enqueued: SyncProductPayload[] = [];
    const scanner = new DriftScanner({} as ShopMappings, map, {
      enqueue: async (payload: SyncProductPayload) => void enqueued.push(payload),
    } as unknown as SyncEnqueuer);
    expect(await scanner.scan(shop, mapping)).toEqual(['103', '104']);
    expect(enqueued).toEqual([
      { shop, productId: '103', reason: 'drift' },
      { shop, productId: '104', reason: 'drift' },
    ]);
    // One hash per distinct configuration, not one per record.
    expect(hashed).toHaveLength(3);
  });

  it('asks for no product when no configuration changed', async () => {
    expect(await map.productsBuiltOn(`${uniqueId('shop')}.myshopify.com`, [])).toEqual([]);
  });
});
