import { describe, expect, it } from 'vitest';
import { ManualClock } from '#lib/clock';
import type { CatalogClients } from '../clients/catalog/catalog-clients.service.js';
import type { OperationsSettings, SyncSettings } from '../platform/config/settings.js';
import type { ShopConfig } from '../platform/config/shop-config.js';
import { Shops } from '../shops/shops.js';
import type { LoadedMapping } from './load-shop-mappings.js';
import type { MappingFile } from './model/mapping-file.js';
import { ShopMappings } from './shop-mappings.service.js';

const SHOPS = 60;

// 60 shops booting: their mapping checks (each reads its catalog account's definitions) run 8 at a
// time in the background, every shop's in turn; the boot itself waits for none of them.
describe('the boot mapping checks of many shops', () => {
  it('start in the background, at most CONNECTOR_SHOP_CHECK_CONCURRENCY at once, every shop in turn', async () => {
    const domains = Array.from({ length: SHOPS }, (_, i) => `check-${i}.myshopify.com`);
    const files = new Map<string, LoadedMapping>(
      domains.map((domain) => [domain, { path: '/mappings/default.yaml', file: {} as MappingFile }]),
    );
    let inFlight = 0;
    let peak = 0;
    const asked: string[] = [];
    const release: Array<() => void> = [];
    const clients = {
      hasKey: () => true,
      forShop: (domain: string) => ({
        client: {
          // The catalog answers only when the test lets it, then is unreachable (the shop stays pending).
          searchAttributes: async () => {
            asked.push(domain);
            inFlight += 1;
            peak = Math.max(peak, inFlight);
            await new Promise<void>((resolve) => release.push(resolve));
            inFlight -= 1;
            throw new Error('catalog unreachable');
          },
        },
      }),
    } as unknown as CatalogClients;
    const mappings = new ShopMappings(
      files,
      clients,
      new ManualClock(),
      { mappingRecheckMs: 60_000, mappingRefreshMs: 900_000 } as SyncSettings,
      new Shops(domains.map((domain) => ({ domain }) as ShopConfig)),
      { shopCheckConcurrency: 8 } as OperationsSettings,
    );

    mappings.onApplicationBootstrap();
    // Nothing settled yet: the boot went on without waiting.
    expect(mappings.state(domains[0] as string).status).toBe('pending');
    for (let round = 0; asked.length < SHOPS || release.length > 0; round++) {
      await new Promise((resolve) => setImmediate(resolve));
      expect(inFlight).toBeLessThanOrEqual(8);
      release.shift()?.();
      if (round > 10 * SHOPS) throw new Error(`stuck: ${asked.length} of ${SHOPS} asked`);
    }
    for (let i = 0; i < 10; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(peak).toBe(8);
    expect(new Set(asked).size).toBe(SHOPS);
    // Each shop stays pending, its check to be tried again later, with the catalog's error.
    expect(mappings.state(domains[SHOPS - 1] as string)).toMatchObject({
      status: 'pending',
      checks: 1,
      lastError: 'catalog unreachable',
    });
    mappings.onModuleDestroy();
  });
});
