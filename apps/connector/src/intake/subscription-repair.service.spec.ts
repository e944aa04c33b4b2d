import { Logger } from '@nestjs/common';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SystemClock } from '#lib/clock';
import type { ShopifyAdmin } from '../clients/shopify/shopify-admin.service.js';
import type { ShopMappings } from '../mapping/shop-mappings.service.js';
import type { ShopConfig } from '../platform/config/connector.config.js';
import type { HttpSettings, OperationsSettings } from '../platform/config/settings.js';
import type { ShopSessionRepository } from '../shops/shop-sessions.repository.js';
import type { Shops } from '../shops/shops.js';
import { SubscriptionRepair } from './subscription-repair.service.js';
import { SubscriptionsAtBoot } from './subscriptions-at-boot.service.js';

const SHOP = { domain: 'boot.myshopify.com' } as ShopConfig;
const URI = 'https://connector.example/webhooks/shopify';

/**
 * Shopify's subscriptions of one shop: each call answers after a few event-loop turns (as over
 * HTTP), and a second subscription of one topic and address is refused as Shopify refuses it.
 */
class FakeShopify {
  readonly subscriptions: Array<{ topic: string; uri: string }> = [];
  creates = 0;

  async request(query: string, variables: { topic?: string; uri: string }): Promise<unknown> {
    for (let i = 0; i < 5; i++) await Promise.resolve();
    if (!query.includes('webhookSubscriptionCreate')) {
      return { webhookSubscriptions: { nodes: this.subscriptions.map((s, i) => ({ id: String(i), ...s })) } };
    }
    this.creates += 1;
    const taken = this.subscriptions.some((s) => s.topic === variables.topic && s.uri === variables.uri);
    if (!taken) this.subscriptions.push({ topic: variables.topic as string, uri: variables.uri });
    const userErrors = taken ? [{ message: 'Address for this topic has already been taken' }] : [];
    return { webhookSubscriptionCreate: { webhookSubscription: taken ? null : { id: 'new' }, userErrors } };
  }
}

function world(collections: string[] = []) {
  const shopify = new FakeShopify();
  const recorded: Array<{ topics: string[]; recreated: number }> = [];
  const http = { publicUrl: 'https://connector.example' } as HttpSettings;
  const shops = { all: [SHOP] } as unknown as Shops;
  const repair = new SubscriptionRepair(
    http,
    shops,
    {
      find: async () => ({ state: 'active' }),
      recordSubscriptions: async (_shop: string, topics: string[], recreated: number) => {
        recorded.push({ topics, recreated });
      },
    } as unknown as ShopSessionRepository,
    { forShop: () => shopify } as unknown as ShopifyAdmin,
    new SystemClock(),
    { scopeOf: () => ({ collections }) } as unknown as ShopMappings,
  );
  const boot = new SubscriptionsAtBoot(http, shops, new SystemClock(), repair, {
    shopCheckConcurrency: 8,
  } as OperationsSettings);
  return { shopify, recorded, repair, boot };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the subscription repair', () => {
  it("and the boot's pass share one pass per shop: a boot creates each topic once and logs no repair", async () => {
    const warnings: string[] = [];
    vi.spyOn(Logger.prototype, 'warn').mockImplementation((message: unknown) => {
      warnings.push(String(message));
    });
    const { shopify, repair, boot } = world();
    // The boot: its pass, and the scheduled check's run at boot, at the same moment.
    boot.onApplicationBootstrap();
    const [results] = await Promise.all([repair.checkAll(), boot.booted]);
    expect(shopify.creates).toBe(4);
    expect(shopify.subscriptions.map((s) => s.topic).sort()).toEqual([
      'APP_UNINSTALLED',
      'PRODUCTS_CREATE',
      'PRODUCTS_DELETE',
      'PRODUCTS_UPDATE',
    ]);
    expect(results).toEqual([{ shop: SHOP.domain, outcome: 'checked', recreated: [] }]);
    expect(warnings.filter((w) => /already been taken|created again/.test(w))).toEqual([]);
  });

  it('recreates, counts and warns about what Shopify deleted after the first pass', async () => {
    const warnings: string[] = [];
    vi.spyOn(Logger.prototype, 'warn').mockImplementation((message: unknown) => {
      warnings.push(String(message));
    });
    const { shopify, recorded, repair } = world();
    await repair.checkAll();
    shopify.subscriptions.splice(0, 1);
    const [result] = await repair.checkAll();
    expect(result?.recreated).toEqual(['PRODUCTS_CREATE']);
    expect(recorded.map((r) => r.recreated)).toEqual([0, 1]);
    expect(warnings).toEqual([
      `${SHOP.domain}: webhook subscriptions were missing, created again: PRODUCTS_CREATE`,
    ]);
  });

  it('subscribes the collection topics of a shop whose scope names collections (and re-creates them)', async () => {
    const { shopify, repair } = world(['summer']);
    await repair.checkAll();
    const collections = ['COLLECTIONS_CREATE', 'COLLECTIONS_DELETE', 'COLLECTIONS_UPDATE'];
    expect(
      shopify.subscriptions
        .map((s) => s.topic)
        .filter((t) => t.startsWith('COLLECTIONS_'))
        .sort(),
    ).toEqual(collections);
    shopify.subscriptions.splice(
      shopify.subscriptions.findIndex((s) => s.topic === 'COLLECTIONS_UPDATE'),
      1,
    );
    const [result] = await repair.checkAll();
    expect(result?.recreated).toEqual(['COLLECTIONS_UPDATE']);
    expect(shopify.subscriptions.every((s) => s.uri === URI)).toBe(true);
  });
});
