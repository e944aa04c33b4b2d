import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, sample } from './support/admin-client.js';
import { eventually } from './support/connector-harness.js';
import { ADMIN_TOKEN, EnrichmentFixture } from './support/enrichment-fixture.js';

interface WriteBack {
  at: string;
  field: string;
  outcome: string;
  conflict: boolean;
  details: { attribute: string; target: string; purpose: string };
}

// What operators see of the write-back (src/enrichment/operations-hooks.ts): the poll's
// checkpoint, lag and watchlist in the queue view, a product's write-back history with its
// conflicts in product status and the product timeline, and the metrics moving as work happens.
describe('the write-back as operators see it', () => {
  let fx: EnrichmentFixture;

  beforeAll(async () => {
    fx = await EnrichmentFixture.start();
  });
  afterAll(async () => {
    await fx?.close();
  });

  it('shows the checkpoint, lag, watchlist, history and conflicts; the metrics move', async () => {
    const admin = <T>(path: string) => call<T>(fx.harness.url, 'GET', path, ADMIN_TOKEN);
    const product = await fx.product('Operated shirt');
    await fx.enrich([product.parentSku]);

    // Finished and awaiting review: a checkpoint, its lag, the record on the watchlist.
    await fx.poll();
    type Queues = {
      enrichment: { checkpoint: string | null; lagSeconds: number | null; watchlistSize: number };
    };
    const { enrichment } = (await admin<Queues>('/admin/queues')).body;
    expect(enrichment.checkpoint).not.toBeNull();
    expect(Number.isNaN(Date.parse(enrichment.checkpoint as string))).toBe(false);
    expect(enrichment.lagSeconds).toBeGreaterThanOrEqual(0);
    expect(enrichment.watchlistSize).toBeGreaterThanOrEqual(1);

    // Approved and pushed; then the merchant edits the field: the conflict is recorded.
    await fx.review(product.parentSku, { approve: ['seoTitle'] });
    await fx.poll();
    const edit = await fx.sandboxes.merchant(fx.shop, 'PUT', `products/${product.productId}.json`, {
      product: { id: Number(product.productId), metafields_global_title_tag: 'The merchant title' },
    });
    expect(edit.status).toBe(200);
    await fx.settle(product.productId);
    const status = `/admin/products/${product.productId}?shop=${fx.shop.domain}`;
    const writeBacks = await eventually(async () => {
      const entries = (await admin<{ writeBacks: WriteBack[] | null }>(status)).body.writeBacks ?? [];
      return entries.some((e) => e.conflict) && entries;
    });
    const seo = writeBacks.filter((e) => e.details.attribute === 'seoTitle');
    // Latest first: the conflict, then the push it overrode.
    expect(seo.map((e) => [e.details.purpose, e.outcome, e.conflict])).toEqual([
      ['conflict', 'conflict', true],
      ['push', 'ok', false],
    ]);
    for (const entry of seo) {
      expect(entry.field).toBe(entry.details.target);
      expect(entry.field).toMatch(/seo/i);
    }

    // The product's timeline in the operators' view has the same entries.
    const login = await fetch(`${fx.harness.url}/admin/ui/login`, {
      method: 'POST',
      body: new URLSearchParams({ token: ADMIN_TOKEN }),
      redirect: 'manual',
    });
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] as string;
    const timeline = await fetch(
      `${fx.harness.url}/admin/ui/products/${product.productId}?shop=${fx.shop.domain}`,
      {
        headers: { cookie },
      },
    );
    expect(timeline.status).toBe(200);
    const page = await timeline.text();
    expect(page).toContain('class="event-write-back"');
    // The merchant's edit kept, in words (not "conflict"), the target as the field they know.
    expect(page).toMatch(
      /the merchant edited Shopify&#39;s SEO (title|description): kept the merchant&#39;s edit \(the catalog&#39;s seoTitle is not written over it\)/,
    );

    const metrics = (await call(fx.harness.url, 'GET', '/metrics')).text;
    const shop = { shop: fx.shop.domain };
    expect(
      sample(metrics, 'connector_write_backs_total', { ...shop, outcome: 'push_ok' }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(metrics, 'connector_write_back_conflicts_total', { ...shop, kind: 'merchant_edit' }),
    ).toBeGreaterThanOrEqual(1);
    expect(metrics).toContain(`connector_enrichment_poll_lag_seconds{shop="${fx.shop.domain}"}`);
  });
});
