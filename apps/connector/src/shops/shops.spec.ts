import { describe, expect, it } from 'vitest';
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

  it('sees a row added while a read was under way (shops installing at once)', async () => {
    let rows: ShopConfig[] = [];
    let loads = 0;
    const reads: Array<() => void> = [];
    const shops = new Shops([], async () => {
      loads += 1;
      const seen = [...rows];
      await new Promise<void>((resolve) => reads.push(resolve));
      return seen;
    });
    // A's install reads; B's row is added after that read began, then B asks, then C.
    const a = shops.refresh();
    rows = [shop('b.myshopify.com')];
    const b = shops.refresh();
    rows = [shop('b.myshopify.com'), shop('c.myshopify.com')];
    const c = shops.refresh();
    while (loads < 2 || reads.length > 0) {
      reads.shift()?.();
      await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all([a, b, c]);
    expect(loads).toBe(2);
    expect(shops.all.map((s) => s.domain)).toEqual(['b.myshopify.com', 'c.myshopify.com']);
  });

  it('reads the rows again on a miss at most once a second', async () => {
    let now = 0;
    let loads = 0;
    let rows: ShopConfig[] = [];
    const shops = new Shops(
      [],
      async () => {
        loads += 1;
        return rows;
      },
      () => now,
    );
    expect(await shops.findFresh('x.myshopify.com')).toBeUndefined();
    rows = [shop('x.myshopify.com')];
    expect(await shops.findFresh('x.myshopify.com')).toBeUndefined();
    expect(loads).toBe(1);
    now = 1_000;
    expect((await shops.findFresh('x.myshopify.com'))?.domain).toBe('x.myshopify.com');
    expect(loads).toBe(2);
    // Found: no read.
    await shops.findFresh('x.myshopify.com');
    expect(loads).toBe(2);
  });
});
