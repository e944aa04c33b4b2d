import { describe, expect, it } from 'vitest';
import { loadConnectorConfig } from '../../platform/config/connector.config.js';
import type { Failure } from '../../platform/failures/failure.entity.js';
import { ReplayRegistry } from '../../platform/failures/replay-registry.service.js';
import type { SyncMediaPayload } from '../../platform/queues/job-payloads.js';
import { SyncEvents } from '../../product-sync/sync-events.js';
import type { MediaChangeCheck } from './media-change-check.service.js';
import type { MediaEnqueuer } from './media-enqueuer.service.js';
import { MediaHooks } from './media-hooks.service.js';

const env = {
  CONNECTOR_SHOPS: 'demo.myshopify.com',
  CONNECTOR_SHOP_DEMO_ACCESS_TOKEN: 't',
  CONNECTOR_WEBHOOK_SECRETS: 's',
  CONNECTOR_CATALOG_URL: 'http://catalog',
  CONNECTOR_CATALOG_API_KEY: 'k',
};

function setup(extra: Record<string, string> = {}, reason: string | null = 'no media run yet') {
  const registry = new ReplayRegistry();
  const enqueued: SyncMediaPayload[] = [];
  const enqueuer = { enqueue: async (payload: SyncMediaPayload) => void enqueued.push(payload) };
  const hooks = new MediaHooks(
    { reasonToRun: async () => reason } as unknown as MediaChangeCheck,
    registry,
    enqueuer as MediaEnqueuer,
    loadConnectorConfig({ ...env, ...extra }).media,
  );
  hooks.onModuleInit();
  const events = new SyncEvents([hooks]);
  const synced = (outcome: 'synced' | 'deleted') =>
    events.emitSynced({ shop: 'demo.myshopify.com', productId: '7', outcome, product: null, jobId: '1' });
  return { registry, enqueued, synced };
}

describe('MediaHooks', () => {
  it("enqueues the product's media job after a sync that kept the product, not after a delete", async () => {
    const { enqueued, synced } = setup();
    await synced('synced');
    await synced('deleted');
    expect(enqueued).toEqual([{ shop: 'demo.myshopify.com', productId: '7', reason: 'synced' }]);
  });

  it("enqueues nothing when the product's images did not change since the last media run", async () => {
    const { enqueued, synced } = setup({}, null);
    await synced('synced');
    expect(enqueued).toEqual([]);
  });

  it('enqueues nothing when media is switched off', async () => {
    const { enqueued, synced } = setup({ CONNECTOR_MEDIA_ENABLED: 'false' });
    await synced('synced');
    expect(enqueued).toEqual([]);
  });

  it("replays a media failure as a media run of the failure's product", async () => {
    const { registry, enqueued } = setup();
    const failure = {
      id: '12',
      shop: 'demo.myshopify.com',
      payload: { productId: '7', mediaId: 'gid://shopify/MediaImage/3' },
    };
    await registry.handlerFor('sync-media')(failure as unknown as Failure);
    expect(enqueued).toEqual([
      { shop: 'demo.myshopify.com', productId: '7', reason: 'replay', failureId: '12' },
    ]);
  });
});
