import { Worker } from 'node:worker_threads';
import { type BenchStack, startBenchStack } from './support/bench-stack.js';
import type { BenchContext, Benchmark, BenchResult } from './support/benchmark.js';
import type { DeliveryLoadInput, DeliveryLoadOutput } from './support/delivery-load-worker.js';
import { ratio, round } from './support/figures.js';
import { createProducts } from './support/shop-fixtures.js';

/** One system's figures under the fixed-rate load. */
interface IngestFigures {
  /** The webhook ids answered 2xx (not reported: checked against the inbox). */
  acceptedIds: string[];
  sent: number;
  accepted: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  ratePerSecond: number;
}

/**
 * `ingest`: signed `products/update` deliveries at a fixed rate (300 per second for 20 s) to the
 * connector, then to the naive peer, on the same stack. Ack latency p50/p99/max and errors of
 * each; afterwards every delivery the connector accepted must be in its inbox.
 */
export const ingest: Benchmark = {
  name: 'ingest',
  summary:
    'signed products/update webhooks at a fixed rate: ack latency, errors, every accepted delivery in the inbox',
  async run(context: BenchContext): Promise<BenchResult> {
    const rate = context.smoke ? 50 : 300;
    const seconds = context.smoke ? 2 : 20;
    const productCount = context.smoke ? 3 : 20;
    const stack = await startBenchStack({
      catalogRate: 50,
      connectorNodeArgs: context.connectorNodeArgs,
      connectorEnv: { CONNECTOR_SYNC_DEBOUNCE_MS: '1000' },
    });
    try {
      context.log(`ingest: ${productCount} products, then ${rate}/s for ${seconds} s to each system`);
      const products = await createProducts(stack, productCount, 1);
      await stack.settle();
      const bodies = products.map((p) => ({ ...p }));
      const connectorCpu = cpuMeter(stack.connector);
      const { acceptedIds, ...connectorLoad } = await load(
        stack,
        `${stack.connector.url}/webhooks/shopify`,
        bodies,
        rate,
        seconds,
      );
      const connector = { ...connectorLoad, ...connectorCpu.read() };
      const inboxed = await inboxCount(stack, acceptedIds);
      context.log('ingest: connector done, waiting for its syncs to drain before the peer runs');
      await stack.settle(300_000);
      const peerUrl = `${(stack.peer as NonNullable<BenchStack['peer']>).url}/webhooks/shopify`;
      const peerCpu = cpuMeter(stack.peer as NonNullable<BenchStack['peer']>);
      const { acceptedIds: _, ...naiveLoad } = await load(stack, peerUrl, bodies, rate, seconds);
      const naive = { ...naiveLoad, ...peerCpu.read() };
      const figures = {
        rate,
        seconds,
        products: productCount,
        catalogRatePerSecond: 50,
        infrastructure: stack.infrastructure,
        connector: { ...connector, inboxed, allInInbox: inboxed === connector.accepted },
        naive,
        ratio: {
          p50: ratio(connector.p50Ms, naive.p50Ms),
          p99: ratio(connector.p99Ms, naive.p99Ms),
          max: ratio(connector.maxMs, naive.maxMs),
          errors: ratio(connector.errors, naive.errors),
        },
      };
      const row = (label: string, key: Exclude<keyof IngestFigures, 'acceptedIds'>) => [
        label,
        connector[key],
        naive[key],
        ratio(connector[key], naive[key]),
      ];
      return {
        figures,
        table: {
          head: ['figure', 'connector', 'naive peer', 'ratio'],
          rows: [
            row('sent', 'sent'),
            row('accepted (2xx)', 'accepted'),
            row('errors (incl. time-outs, non-2xx)', 'errors'),
            row('ack p50 ms', 'p50Ms'),
            row('ack p99 ms', 'p99Ms'),
            row('ack max ms', 'maxMs'),
            row('achieved rate /s', 'ratePerSecond'),
            ['CPU of the system under load, % of one core', connector.cpuPercent, naive.cpuPercent, null],
            [
              'CPU of the load generator + sandboxes, %',
              connector.benchCpuPercent,
              naive.benchCpuPercent,
              null,
            ],
            ['accepted and in the inbox afterwards', inboxed, null, null],
          ],
        },
      };
    } finally {
      await stack.close();
    }
  },
};

/**
 * CPU used during a load by the system under test (its process) and by this process (the load
 * generator and both sandboxes), in % of one core: says whether the system or the machine bound
 * the latencies.
 */
function cpuMeter(service: Pick<BenchStack['connector'], 'cpuMs'>) {
  const start = performance.now();
  const serviceStart = service.cpuMs();
  const own = process.cpuUsage();
  return {
    read() {
      const wall = performance.now() - start;
      const serviceEnd = service.cpuMs();
      const ownUsed = process.cpuUsage(own);
      return {
        cpuPercent:
          serviceStart === null || serviceEnd === null
            ? null
            : round(((serviceEnd - serviceStart) / wall) * 100, 0),
        benchCpuPercent: round(((ownUsed.user + ownUsed.system) / 1000 / wall) * 100, 0),
      };
    },
  };
}

/** How many of these webhook ids are in the connector's inbox. */
async function inboxCount(stack: BenchStack, webhookIds: string[]): Promise<number> {
  const { rows } = await stack.db.query<{ n: string }>(
    `SELECT count(*) AS n FROM "${stack.schema}".inbox WHERE webhook_id = ANY($1::text[])`,
    [webhookIds],
  );
  return Number(rows[0]?.n ?? 0);
}

/**
 * Sends `rate` signed deliveries per second for `seconds` to `url` (each body a product, round
 * robin), from a thread of its own (`delivery-load-worker.ts` says why).
 */
async function load(
  stack: BenchStack,
  url: string,
  products: Array<Record<string, unknown>>,
  rate: number,
  seconds: number,
): Promise<IngestFigures> {
  const input: DeliveryLoadInput = {
    url,
    rate,
    seconds,
    // Shopify gives up on a delivery after 5 s.
    timeoutMs: 5_000,
    shopDomain: stack.shop.domain,
    secret: stack.shop.secret,
    products,
  };
  const worker = new Worker(new URL('./support/delivery-load-worker.js', import.meta.url), {
    workerData: input,
  });
  const { result, acceptedIds } = await new Promise<DeliveryLoadOutput>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the load thread exited (${code}) before answering`)));
  });
  await worker.terminate();
  const accepted = acceptedIds.length;
  return {
    acceptedIds,
    sent: result.sent,
    accepted,
    errors: result.errors + result.timeouts + result.non2xx,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    p50Ms: result.p50Ms,
    p99Ms: result.p99Ms,
    maxMs: result.maxMs,
    ratePerSecond: round(accepted / seconds, 1),
  };
}
