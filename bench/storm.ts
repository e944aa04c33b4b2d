import { startBenchStack, waitFor } from './support/bench-stack.js';
import type { BenchContext, Benchmark, BenchResult } from './support/benchmark.js';
import { callsSince, catalogRecords, isWrite, productIdOf, writesNeeded } from './support/catalog-state.js';
import { ratio, sleep } from './support/figures.js';
import { pollCalls } from './support/poll-calls.js';
import { syncRuns } from './support/resync-run.js';
import { createProducts } from './support/shop-fixtures.js';

/** One system's figures in the storm. */
interface StormFigures {
  /** The sync's catalog calls: every call in the account's request log but the enrichment poll's. */
  calls: number;
  /** Every call, the enrichment poll's searches included (the naive peer has no poll). */
  allCalls: number;
  pollCalls: number;
  writes: number;
  needed: number;
  callRatio: number | null;
  writeRatio: number | null;
  /** 429 answers it got from the catalog. */
  throttled: number;
  /** From the first update until the catalog held every product's last title; null: never within the wait. */
  finalStateMs: number | null;
  /** Products whose catalog title is not the last one when the wait ended. */
  stale: number;
}

/**
 * `storm`: 1,000 merchant updates over 10 products (3 variants each) in 10 s, half of them
 * inventory-only, with the Shopify sandbox's merge window at 0 (one delivery per write). Catalog
 * calls of each system's sync divided by the writes needed to take each product straight from its
 * first state to its last, and the time until the catalog holds every final state. The
 * connector's enrichment poll searches the same account (early polls while synced records wait
 * for enrichment, on its own share of the budget): its calls are counted apart, from the
 * connector's poll records.
 */
export const storm: Benchmark = {
  name: 'storm',
  summary:
    'a burst of updates (half inventory-only, merge window 0): catalog calls / calls needed, time to final state',
  async run(context: BenchContext): Promise<BenchResult> {
    const productCount = context.smoke ? 2 : 10;
    const updates = context.smoke ? 40 : 1_000;
    const seconds = context.smoke ? 2 : 10;
    const variants = 3;
    const waitMs = context.smoke ? 30_000 : 180_000;
    const catalogRate = 50;
    const stack = await startBenchStack({
      catalogRate,
      shopify: { webhooks: { mergeWindowMs: 0 } },
      connectorNodeArgs: context.connectorNodeArgs,
    });
    try {
      context.log(
        `storm: ${productCount} products x ${variants} variants, then ${updates} updates in ${seconds} s`,
      );
      const products = await createProducts(stack, productCount, variants);
      await stack.settle();
      await waitFor(
        'the peer to create every product',
        async () => countProducts(stack, stack.peerAccount) === productCount,
      );
      await waitFor(
        'the connector to create every product',
        async () => countProducts(stack, stack.connectorAccount) === productCount,
      );
      const before = {
        connector: catalogRecords(stack.catalog, stack.connectorAccount),
        naive: catalogRecords(stack.catalog, stack.peerAccount),
      };
      const lastTitle = new Map<string, string>();
      const started = Date.now();
      const t0 = performance.now();
      const writes: Array<Promise<unknown>> = [];
      for (let i = 0; i < updates; i++) {
        const due = (i * seconds * 1000) / updates;
        const wait = due - (performance.now() - t0);
        if (wait > 1) await sleep(wait);
        const product = products[i % productCount] as {
          id: number;
          variants: Array<{ inventory_item_id: number }>;
        };
        // Each product gets both kinds in turn: a title change, then an inventory-only change.
        if (Math.floor(i / productCount) % 2 === 0) {
          const title = `Storm tee ${product.id} #${i}`;
          lastTitle.set(String(product.id), title);
          writes.push(
            stack.merchant('PUT', `products/${product.id}.json`, { product: { id: product.id, title } }),
          );
        } else {
          const item = product.variants[Math.floor(i / productCount / 2) % variants]?.inventory_item_id;
          writes.push(
            stack.merchant('POST', 'inventory_levels/adjust.json', {
              inventory_item_id: item,
              available_adjustment: 1,
            }),
          );
        }
      }
      await Promise.all(writes);
      const stormMs = Math.round(performance.now() - t0);
      // The last title is what Shopify holds now, not the last one sent: on a loaded machine the
      // concurrent writes can be applied out of the order they were sent in.
      for (const id of lastTitle.keys()) {
        const answer = (await stack.merchant('GET', `products/${id}.json`)) as { product: { title: string } };
        lastTitle.set(id, answer.product.title);
      }
      context.log(
        `storm: ${updates} writes sent in ${stormMs} ms; waiting for both catalogs to hold the last titles`,
      );
      const done: { connector: number | null; naive: number | null } = { connector: null, naive: null };
      const accounts = { connector: stack.connectorAccount, naive: stack.peerAccount };
      const deadline = Date.now() + waitMs;
      while ((done.connector === null || done.naive === null) && Date.now() < deadline) {
        for (const system of ['connector', 'naive'] as const) {
          if (done[system] === null && stale(stack, accounts[system], lastTitle) === 0) {
            done[system] = Math.round(performance.now() - t0);
          }
        }
        await sleep(100);
      }
      // Let a late write (a retried delivery, a queued run) land before counting.
      await sleep(context.smoke ? 500 : 3_000);
      const figures = async (system: 'connector' | 'naive'): Promise<StormFigures> => {
        const calls = await callsSince(accounts[system], started);
        // The enrichment poll searches the connector's account too, on its own budget share
        // (early polls while synced records wait, issue 44): not the sync's calls the storm weighs.
        const polled =
          system === 'connector' ? (await pollCalls(stack, { from: started, to: Date.now() })).total : 0;
        const syncCalls = calls.length - polled;
        const after = catalogRecords(stack.catalog, accounts[system]);
        const needed = writesNeeded(before[system], after);
        const writeCount = calls.filter(isWrite).length;
        return {
          calls: syncCalls,
          allCalls: calls.length,
          pollCalls: polled,
          writes: writeCount,
          needed,
          callRatio: ratio(syncCalls, needed),
          writeRatio: ratio(writeCount, needed),
          throttled: calls.filter((c) => c.status === 429).length,
          finalStateMs: done[system],
          stale: stale(stack, accounts[system], lastTitle),
        };
      };
      const connector = { ...(await figures('connector')), ...(await syncRuns(stack, started)) };
      const naive = await figures('naive');
      const row = (label: string, key: keyof StormFigures) => [
        label,
        connector[key],
        naive[key],
        ratio(Number(connector[key]), Number(naive[key])),
      ];
      return {
        figures: {
          products: productCount,
          variants,
          updates,
          seconds,
          stormMs,
          catalogRatePerSecond: catalogRate,
          infrastructure: stack.infrastructure,
          connector,
          naive,
          ratio: {
            calls: ratio(connector.calls, naive.calls),
            finalStateMs:
              connector.finalStateMs === null || naive.finalStateMs === null
                ? null
                : ratio(connector.finalStateMs, naive.finalStateMs),
          },
        },
        table: {
          head: ['figure', 'connector', 'naive peer', 'ratio'],
          rows: [
            row("catalog calls (the sync's)", 'calls'),
            row('of which writes', 'writes'),
            row('enrichment poll calls (not counted above)', 'pollCalls'),
            row('writes needed (first to last state)', 'needed'),
            row('calls / needed (target <= 1.2)', 'callRatio'),
            row('writes / needed', 'writeRatio'),
            row('429s', 'throttled'),
            row('ms until every final state', 'finalStateMs'),
            row('products not at their last title', 'stale'),
            ['sync runs (connector)', connector.runs, null, null],
            ['sync run p50 / max ms', `${connector.runP50Ms} / ${connector.runMaxMs}`, null, null],
          ],
        },
      };
    } finally {
      await stack.close();
    }
  },
};

type Stack = Awaited<ReturnType<typeof startBenchStack>>;

type Account = Parameters<typeof catalogRecords>[1];

/** The account's product records (not variants) made from Shopify products. */
function countProducts(stack: Stack, account: Account): number {
  let count = 0;
  for (const record of catalogRecords(stack.catalog, account).values())
    if (record.parentSkuId === null && productIdOf(record) !== null) count++;
  return count;
}

/** How many products' catalog name is not their last title yet. */
function stale(stack: Stack, account: Account, lastTitle: Map<string, string>): number {
  const names = new Map<string, unknown>();
  for (const record of catalogRecords(stack.catalog, account).values()) {
    const id = productIdOf(record);
    if (id !== null && record.parentSkuId === null) names.set(id, record.attributes.name);
  }
  let count = 0;
  for (const [id, title] of lastTitle) if (names.get(id) !== title) count++;
  return count;
}
