// Product search over 100,000 records in the catalog sandbox's in-memory store.
// Run on demand: `npx vitest bench --run bench/catalog-search.bench.ts` (reports ops/s). `npm test` runs
// it only small (BENCH_PRODUCTS=2000, bench/README.md), to check that it still works.
import { readFileSync } from 'node:fs';
import { test } from 'vitest';
import { Account } from '../apps/catalog-sandbox/src/accounts/account.js';
import type { AccountDefinition } from '../apps/catalog-sandbox/src/accounts/account-definition.js';
import { DEFAULT_BEHAVIOUR } from '../apps/catalog-sandbox/src/config/sandbox-behaviour.js';
import { searchProducts } from '../apps/catalog-sandbox/src/search/product-search.service.js';

const N = Number(process.env.BENCH_PRODUCTS ?? 100_000);
const T0 = Date.UTC(2026, 0, 1);
const seed = JSON.parse(
  readFileSync(new URL('../apps/catalog-sandbox/seed/default.json', import.meta.url), 'utf8'),
);
const definition = seed.accounts[0] as AccountDefinition;
const account = new Account(
  'bench',
  { ...definition, apiKeys: [] },
  DEFAULT_BEHAVIOUR,
  { enabled: false, ratePerSecond: 4, burst: 8 },
  T0,
);
const categories = [
  'apparel-tops-tshirts',
  'apparel-bottoms-jeans',
  'footwear-sneakers',
  'home-kitchen-knives',
];
for (let i = 0; i < N; i++) {
  const attributes = new Map<string, { value: string | string[] }>([
    ['name', { value: `Product ${i}` }],
    ['brand', { value: `Brand ${i % 50}` }],
    ['price', { value: String(10 + (i % 90)) }],
    ['productCategory', { value: categories[i % 4] as string }],
    ['description', { value: `<p>A sturdy product number ${i} made for everyday use.</p>` }],
  ]);
  account.products.insert({
    id: `id${i}`,
    skuId: `SK${String(i).padStart(8, '0')}`,
    supplierSku: `SUP-${i}`,
    parentSkuId: null,
    createdAt: T0 + i * 1_000,
    updatedAt: T0 + i * 1_000,
    seq: i,
    attributes,
    ownMedia: false,
    variantSkuIds: [],
    ...(i % 3 === 0
      ? {
          dataEnrichment: {
            taskId: `TK${String(i).padStart(8, '0')}`,
            status: 'FINISHED' as const,
            completedAt: T0 + N * 1_000 + i,
          },
        }
      : {}),
  });
}

test(`product search over ${N.toLocaleString('en')} records`, async ({ bench }) => {
  const poll = {
    filter: {
      dataEnrichment: { status: { $eq: 'FINISHED' }, completedAt: { $gt: T0 + N * 1_000 + 90_000 } },
    },
    sort: { field: 'dataEnrichment.completedAt', order: 'ASC' },
    pagination: { limit: 500 },
  };
  await bench.compare(
    bench('supplierSku $eq (index)', () => {
      searchProducts(account, { filter: { supplierSku: { $eq: 'SUP-77777' } } });
    }),
    bench('createdAt range, first page (index, in order)', () => {
      searchProducts(account, {
        filter: { createdAt: { $gte: T0 + 50_000_000 } },
        pagination: { limit: 100 },
      });
    }),
    bench('completedAt past a checkpoint, sorted (the connector poll; full scan)', () => {
      searchProducts(account, poll);
    }),
    bench('attribute value filter (full scan)', () => {
      const filter = { attributes: [{ key: { $eq: 'brand' }, value: { $eq: 'Brand 7' } }] };
      searchProducts(account, { filter, pagination: { limit: 500 } });
    }),
    bench('keyword (full scan)', () => {
      searchProducts(account, { filter: { keyword: 'number 4242' } });
    }),
    { time: Number(process.env.BENCH_TIME_MS ?? 1_000) },
  );
});
