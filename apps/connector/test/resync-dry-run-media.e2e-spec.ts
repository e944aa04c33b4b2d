import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResyncRunDto } from '../src/resync/resync-run.dto.js';
import { call } from './support/admin-client.js';
import { eventually } from './support/connector-harness.js';
import { countMediaCalls, type MediaWorld, startMediaWorld } from './support/media-world.js';

// Issue 31, the media part of a dry run (beside resync-dry-run.e2e-spec.ts, whose world runs
// without media): a dry-run resync of a product with an image lists the calls its sync would
// send and the image upload and gallery PATCH its media job would make after it, and sends none;
// the real resync then uploads the image exactly once and writes the planned gallery.
describe('dry-run resync: product images', () => {
  let world: MediaWorld;
  const token = `admin-${randomBytes(16).toString('hex')}`;

  beforeAll(async () => {
    world = await startMediaWorld({ shops: ['live'], env: { CONNECTOR_ADMIN_TOKEN: token } });
  });
  afterAll(async () => {
    await world?.close();
  });

  const admin = <T>(method: string, path: string, body?: unknown) =>
    call<T>(world.harness.url, method, path, token, body);
  const ended = (id: string) =>
    eventually(async () => {
      const run = await admin<ResyncRunDto>('GET', `/admin/resync/${id}`);
      return run.body.state !== 'running' && run.body;
    }, 30_000);

  it('lists the upload and the gallery PATCH, sends nothing; the real run uploads once', async () => {
    const { shop, account } = world.shop('live');
    expect((await admin('PUT', `/admin/shops/${shop.domain}/mode`, { mode: 'live' })).status).toBe(200);
    const { productId } = await world.createProduct(shop, ['front']);
    await account.controls.clearRequests();

    const started = await admin<ResyncRunDto>('POST', '/admin/resync', {
      shop: shop.domain,
      product: productId,
      dryRun: true,
    });
    expect(started.status, started.text).toBe(200);
    const dry = await ended(started.body.id);
    expect(dry).toMatchObject({
      state: 'done',
      dryRun: true,
      plan: { counts: { products: 1, changed: 1, creates: 1, uploads: 1, patches: 1, deletes: 0, total: 3 } },
    });
    const calls = dry.plan?.products[0]?.calls ?? [];
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual([
      'POST /v1/products',
      'POST /v1/upload/prepare',
      'PATCH /v1/products/{skuId}',
    ]);
    const upload = expect.stringMatching(/^upload:gid:\/\/shopify\/MediaImage\/\d+$/);
    expect(calls[1]).toMatchObject({ kind: 'uploadImage', before: null, after: { fileId: upload } });
    expect(calls[2]).toMatchObject({ before: { media: [] }, after: { media: [upload] } });

    // Nothing sent: no catalog write, no upload; no media state stored.
    const dryLog = await account.controls.requests();
    const writes = dryLog.filter((r) => r.method !== 'GET' && r.path.startsWith('/v1/'));
    expect(writes.filter((r) => !r.path.endsWith('/search'))).toEqual([]);
    expect(countMediaCalls(dryLog)).toMatchObject({ prepare: 0, status: 0, patch: 0 });
    expect(await world.mediaStatus(shop, productId)).toBeUndefined();

    // The real run: the sync creates the record, its media job uploads the image once.
    const real = await admin<ResyncRunDto>('POST', '/admin/resync', {
      shop: shop.domain,
      product: productId,
    });
    expect(real.status, real.text).toBe(200);
    const status = await eventually(async () => (await world.mediaStatus(shop, productId)) ?? false, 30_000);
    expect(status).toMatchObject({ images: 1, uploads: 1, writes: 1, image_failures: [] });
    const { skuId } = await world.record(shop, productId);
    expect(await world.catalogMedia(account, skuId)).toEqual(
      await world.fileIdsInShopifyOrder(shop, productId),
    );
    expect(countMediaCalls(await account.controls.requests()).prepare).toBe(1);
  });
});
