import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from './support/connector-harness.js';
import { EnrichmentFixture, type MappedProduct } from './support/enrichment-fixture.js';

// The write-back with many products and with two connector processes on one database and queue.
describe('enrichment write-back at scale', () => {
  describe('two connector processes', () => {
    let fx: EnrichmentFixture;

    const INTERVAL = 300;

    beforeAll(async () => {
      fx = await EnrichmentFixture.start({
        env: { CONNECTOR_ENRICHMENT_POLL_INTERVAL_MS: String(INTERVAL) },
      });
      await fx.startReplica();
    });
    afterAll(async () => {
      await fx?.close();
    });

    it('push each approved value once, however many polls both of them run', async () => {
      const products: MappedProduct[] = [];
      for (const title of ['Oxford shirt', 'Flannel shirt', 'Polo shirt', 'Linen overshirt'])
        products.push(await fx.product(title));
      await fx.enrich(products.flatMap((p) => [p.parentSku, ...p.variantSkus]));
      for (const product of products)
        await fx.review(product.parentSku, { approve: ['seoTitle', 'aiTags', 'material'] });

      const [one, two] = fx.harnesses as [(typeof fx.harnesses)[0], (typeof fx.harnesses)[0]];
      await Promise.all([fx.poll(one), fx.poll(two), fx.poll(one), fx.poll(two)]);
      await Promise.all([fx.poll(two), fx.poll(one)]);

      for (const product of products) {
        const writes = await fx.writes(product);
        expect(writes.map((w) => w.operationName).sort()).toEqual([
          'WriteBackMetafieldsSet',
          'WriteBackProductUpdate',
          'WriteBackTagsAdd',
        ]);
        const state = await fx.shopify(product.gid);
        expect(state.seo.title).toBe(await fx.value(product.parentSku, 'seoTitle'));
      }
    });

    it('run one scheduled poll per interval between them', async () => {
      const scheduled = await eventually(async () => {
        const { rows } = await fx.harness.db.query<{ id: string }>(
          `SELECT id FROM "${fx.harness.schema}".enrichment_poll WHERE trigger = 'schedule' ORDER BY id`,
        );
        return rows.length >= 4 && rows.map((r) => Number(r.id.split(':').at(-1)));
      });
      expect(scheduled.every((at) => Number.isInteger(at) && at > 0)).toBe(true);
      const sorted = [...scheduled].sort((a, b) => a - b);
      for (let i = 1; i < sorted.length; i++)
        expect((sorted[i] as number) - (sorted[i - 1] as number)).toBeGreaterThanOrEqual(INTERVAL);
    });
  });

  describe('600 products finished at one instant', () => {
    let fx: EnrichmentFixture;
    const COUNT = 600;

    beforeAll(async () => {
      fx = await EnrichmentFixture.start({
        // A bucket that never runs dry: the test is about the poll, not the cost limit.
        shopify: { cost: { bucketSize: 1_000_000, restoreRate: 1_000_000 } },
        env: {
          CONNECTOR_CATALOG_RATE_PER_SECOND: '2000',
          CONNECTOR_CATALOG_RATE_BURST: '50',
          CONNECTOR_DATABASE_POOL_SIZE: '24',
          CONNECTOR_SYNC_CONCURRENCY: '8',
          CONNECTOR_ENRICHMENT_PUSH_CONCURRENCY: '8',
          // The scheduled polls only (no early poll while records wait): the test counts a poll's searches.
          CONNECTOR_ENRICHMENT_POLL_BUDGET_SHARE: '0',
        },
      });
    });
    afterAll(async () => {
      await fx?.close();
    });

    it('finds and pushes each of them once, with the tie order shuffled per request, in at most three searches', async () => {
      const behaviour = await fx.sandboxes.catalog.portal.patch(
        `/portal/v1/accounts/${fx.account.id}/behaviour`,
        { searchTieOrder: 'shuffled' },
      );
      expect(behaviour.status).toBe(200);
      const products = await fx.simpleProducts(COUNT);
      const skuIds = products.map((p) => p.parentSku);
      await fx.enrich(skuIds, { oneInstant: true });
      const completedAt = new Set<number>();
      for (let i = 0; i < skuIds.length; i += 500) {
        const page = await fx.account.api.post('/v1/products/search', {
          filter: { skuId: { $in: skuIds.slice(i, i + 500) } },
          pagination: { limit: 500, offset: 0 },
        });
        for (const record of page.body.data.products as Array<{ dataEnrichment: { completedAt: number } }>)
          completedAt.add(record.dataEnrichment.completedAt);
      }
      expect(completedAt.size).toBe(1);
      for (let i = 0; i < skuIds.length; i += 25)
        await Promise.all(
          skuIds.slice(i, i + 25).map((skuId) => fx.review(skuId, { approve: ['seoTitle'] })),
        );

      await fx.account.controls.clearRequests();
      const first = (await fx.poll()) as { counts: Record<string, number> };
      expect(first.counts).toMatchObject({ found: COUNT, unmapped: 0, changed: COUNT, products: COUNT });
      // Each record is paged through once (500 and 100; the boot's scheduled poll may have left
      // an updatedAt checkpoint, adding one empty completedAt search), and the pushes plan from the
      // records the poll read: no search per push.
      const searches = await fx.account.controls.requests({ path: '/v1/products/search' });
      expect(first.counts.calls).toBeGreaterThanOrEqual(2);
      expect(first.counts.calls).toBeLessThanOrEqual(3);
      expect(searches).toHaveLength(first.counts.calls as number);
      await fx.poll();
      const again = (await fx.poll()) as { counts: { changed: number; products: number } };
      expect(again.counts).toMatchObject({ changed: 0, products: 0 });

      const pushed = await fx.productUpdates();
      for (const product of products) expect(pushed.get(product.gid), product.gid).toBe(1);
    }, 300_000);
  });
});
