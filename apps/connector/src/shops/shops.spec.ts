import { describe, expect, it, vi } from 'vitest';
import { Secret } from '../platform/config/secret.js';
import type { ShopConfig } from '../platform/config/shop-config.js';
import { Shops } from './shops.js';

function shop(domain: string, key = ''): ShopConfig {
  return {
    domain,
    key: domain.split('.')[0]?.toUpperCase() ?? '',
    auth: { kind: 'installed', app: { clientId: 'id', clientSecret: new Secret('secret') } },
    webhookSecrets: [],
    apiVersion: '2026-07' as ShopConfig['apiVersion'],
    mappingFile: null,
    catalog: { baseUrl: 'http://catalog', apiKey: new Secret(key) },
  };
}

describe('Shops', () => {
  it('serves the configured shops plus the installed rows, a configured shop winning over its row', async () => {
    let rows = [shop('a.myshopify.com'), shop('b.myshopify.com')];
    const configured = [shop('a.myshopify.com', 'env-key')];
    const shops = new Shops(configured, async () => rows);
    expect(shops.all.map((s) => s.domain)).toEqual(['a.myshopify.com']);
    const told: string[] = [];
    shops.watch((s) => told.push(`${s.domain}:${s.catalog.apiKey.reveal()}`));
    await shops.refresh();
    expect(shops.all.map((s) => s.domain)).toEqual(['a.myshopify.com', 'b.myshopify.com']);
    expect(shops.find('A.myshopify.com')?.catalog.apiKey.reveal()).toBe('env-key');
    expect(told).toEqual(['b.myshopify.com:']);
    // A key set: the listeners hear of the change; an unchanged row is not told again.
    rows = [shop('b.myshopify.com', 'k1')];
    await shops.refresh();
    await shops.refresh();
    expect(told).toEqual(['b.myshopify.com:', 'b.myshopify.com:k1']);
  });

  it('a refresh asked while a read runs ends after a read begun after it: an install during another finds its shop', async () => {
    let rows: ShopConfig[] = [];
    const reads: Array<() => void> = [];
    let loads = 0;
    const shops = new Shops([], async () => {
      loads += 1;
      const snapshot = rows;
      await new Promise<void>((resolve) => reads.push(resolve));
      return snapshot;
    });
    const first = shops.refresh();
    // The second install's row lands while the first read (which began before it) runs.
    rows = [shop('late.myshopify.com')];
    let secondDone = false;
    const second = shops.refresh().then(() => {
      secondDone = true;
    });
    const third = shops.refresh();
    reads.shift()?.();
    await first;
    expect(shops.find('late.myshopify.com')).toBeUndefined();
    expect(secondDone).toBe(false);
    await vi.waitFor(() => expect(reads).toHaveLength(1));
    reads.shift()?.();
    await Promise.all([second, third]);
    expect(shops.find('late.myshopify.com')?.domain).toBe('late.myshopify.com');
    // The callers that came meanwhile shared one more read.
    expect(loads).toBe(2);
  });

  it('reads the rows again on a miss at most once a second; a miss within the second waits for the next read', async () => {
    let now = 0;
    let loads = 0;
    let rows: ShopConfig[] = [];
    const sleeps: number[] = [];
    const shops = new Shops(
      [],
      async () => {
        loads += 1;
        return rows;
      },
      () => now,
      async (ms) => {
        sleeps.push(ms);
        await Promise.resolve();
        now += ms;
      },
    );
    expect(await shops.findFresh('x.myshopify.com')).toBeUndefined();
    expect(loads).toBe(1);
    // Installed at another replica just after that read: two misses within the second share the next read.
    rows = [shop('x.myshopify.com'), shop('y.myshopify.com')];
    now = 400;
    const [x, y] = await Promise.all([
      shops.findFresh('x.myshopify.com'),
      shops.findFresh('y.myshopify.com'),
    ]);
    expect([x?.domain, y?.domain]).toEqual(['x.myshopify.com', 'y.myshopify.com']);
    expect(sleeps).toEqual([600]);
    expect(loads).toBe(2);
    // Found: no read.
    await shops.findFresh('x.myshopify.com');
    expect(loads).toBe(2);
    // A domain nobody installed: one more read after the second, then "not served".
    expect(await shops.findFresh('z.myshopify.com')).toBeUndefined();
    expect(loads).toBe(3);
    expect(sleeps).toEqual([600, 1_000]);
  });
});
