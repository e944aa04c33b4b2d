import { describe, expect, it } from 'vitest';
import { ManualClock } from '#lib/clock';
import { Secret } from '../platform/config/secret.js';
import type { ShopConfig } from '../platform/config/shop-config.js';
import type { ShopMode } from '../platform/config/shop-mode.js';
import type { ShopModesRepository } from './shop-modes.repository.js';
import { LIVE_MODE_TTL_MS, ShopModes } from './shop-modes.service.js';
import { Shops } from './shops.js';

function shop(domain: string, modePin?: ShopMode): ShopConfig {
  return {
    domain,
    key: domain.split('.')[0]?.toUpperCase() ?? '',
    auth: { kind: 'installed', app: { clientId: 'id', clientSecret: new Secret('secret') } },
    webhookSecrets: [],
    apiVersion: '2026-07' as ShopConfig['apiVersion'],
    mappingFile: null,
    catalog: { baseUrl: 'http://catalog', apiKey: new Secret('k') },
    ...(modePin ? { modePin } : {}),
  };
}

/** One `shop_modes` table shared by replicas, counting its reads. */
function table() {
  const rows = new Map<string, ShopMode>();
  let reads = 0;
  const repository = {
    get: async (domain: string) => {
      reads += 1;
      return rows.get(domain) ?? null;
    },
    set: async (domain: string, mode: ShopMode) => {
      const before = rows.get(domain) ?? null;
      rows.set(domain, mode);
      return before;
    },
    purgeShop: async (domain: string) => Number(rows.delete(domain)),
  } as unknown as ShopModesRepository;
  return { repository, rows, reads: () => reads };
}

const A = 'a.myshopify.com';

// The shop mode lookup is asked at every planned-write decision: a replica keeps a `live` it read
// for LIVE_MODE_TTL_MS, never a `shadow`, so a shop going live on another replica is seen at once
// and one going into shadow within the TTL; a switch on the replica itself is seen at once.
describe('ShopModes: the cached lookup', () => {
  const replicas = (db: ReturnType<typeof table>, clock: ManualClock) => {
    const shops = new Shops([shop(A), shop('pinned.myshopify.com', 'shadow')], async () => []);
    return [new ShopModes(shops, db.repository, clock), new ShopModes(shops, db.repository, clock)] as const;
  };

  it('keeps a live read for the TTL, across replicas; a shadow read is never kept', async () => {
    const db = table();
    const clock = new ManualClock(1_000);
    const [one, two] = replicas(db, clock);
    expect(await one.modeOf(A)).toBe('live');
    expect(await one.modeOf(A)).toBe('live');
    expect(db.reads()).toBe(1);

    // Another replica switches to shadow: seen here once the TTL is over.
    await two.set(A, 'shadow');
    expect(await one.modeOf(A)).toBe('live');
    await clock.advance(LIVE_MODE_TTL_MS);
    expect(await one.modeOf(A)).toBe('shadow');
    expect(await one.modeOf(A)).toBe('shadow');
    expect(db.reads()).toBe(3);

    // Back to live on the other replica: seen at the next decision, no wait.
    await two.set(A, 'live');
    expect(await one.modeOf(A)).toBe('live');
    // The replica that switches sees its own switch at once.
    expect(await one.modeOf(A)).toBe('live');
    await one.set(A, 'shadow');
    expect(await one.modeOf(A)).toBe('shadow');
  });

  it('answers a pin without reading, and forgets a purged shop', async () => {
    const db = table();
    const clock = new ManualClock(1_000);
    const [one] = replicas(db, clock);
    expect(await one.modeOf('pinned.myshopify.com')).toBe('shadow');
    expect(db.reads()).toBe(0);
    expect(await one.modeOf(A)).toBe('live');
    db.rows.set(A, 'shadow');
    await one.purgeShop(A);
    db.rows.set(A, 'shadow');
    expect(await one.modeOf(A)).toBe('shadow');
    // A shop not served is not kept either.
    expect(await one.modeOf('unknown.myshopify.com')).toBe('live');
    expect(await one.modeOf('unknown.myshopify.com')).toBe('live');
    expect(db.reads()).toBe(4);
  });
});
