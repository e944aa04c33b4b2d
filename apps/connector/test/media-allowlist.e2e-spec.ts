import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from './support/connector-harness.js';
import { type MediaWorld, startMediaWorld } from './support/media-world.js';

// Image URLs come from Shopify's data, so they must never make the connector reach another host.
// Here the Shopify sandbox hands out image URLs on a host outside the connector's allowlist (its
// own origin): a server of the test's own that counts every request it gets.
describe('media: image URLs outside the allowlist', () => {
  let trap: Server;
  let hits = 0;
  let world: MediaWorld;

  beforeAll(async () => {
    trap = createServer((_req, res) => {
      hits += 1;
      res.end();
    });
    await new Promise<void>((resolve) => trap.listen(0, '127.0.0.1', resolve));
    const trapPort = (trap.address() as AddressInfo).port;
    world = await startMediaWorld({
      shops: ['outside'],
      shopify: { publicUrl: `http://localhost:${trapPort}` },
    });
  });
  afterAll(async () => {
    await world?.close();
    await new Promise((resolve) => trap?.close(resolve));
  });

  it('refuses them without a request, records why, and uploads nothing', async () => {
    const { shop, account } = world.shop('outside');
    const { productId, product } = await world.createProduct(shop, ['hat']);
    expect(new URL(product.images[0]?.src ?? '').host).toBe(
      `localhost:${(trap.address() as AddressInfo).port}`,
    );
    await account.controls.clearRequests();

    const status = await world.syncAndWaitForMedia(shop, productId);
    expect(status).toMatchObject({ images: 1, uploads: 0 });
    expect(status.image_failures).toEqual([expect.objectContaining({ code: 'forbidden_host' })]);
    const failures = await eventually(async () => {
      const rows = await world.mediaFailures(shop);
      return rows.length > 0 && rows;
    });
    expect(failures).toEqual([expect.objectContaining({ error_code: 'forbidden_host', retryable: false })]);
    expect(failures[0]?.error_message).not.toContain('?');
    expect(hits).toBe(0);
    const log = await account.controls.requests();
    expect(log.filter((r) => r.path.startsWith('/v1/upload/'))).toEqual([]);
    // The record itself was created by the sync: only the image was refused.
    expect((await world.record(shop, productId)).skuId).toMatch(/^SK\d{8}$/);
  });
});
