// The naive peer's process (bench/naive-peer/naive-peer.ts): configured by NAIVE_PEER_* variables,
// it listens on 127.0.0.1 and tells the benchmark its URL over IPC. One shop (one catalog key), or
// with NAIVE_PEER_SHOPS (`tenants`) many: one peer per shop, each with its own catalog client and
// budget, picked by the delivery's X-Shopify-Shop-Domain, as a naive multi-shop handler would.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CatalogClient } from '#lib/catalog-client';
import { NaivePeer, type NaivePeerStats } from './naive-peer.js';

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
};
const rate = {
  ratePerSecond: Number(process.env.NAIVE_PEER_CATALOG_RATE_PER_SECOND ?? 4),
  burst: Number(process.env.NAIVE_PEER_CATALOG_RATE_BURST ?? 1),
};
const clientFor = (apiKey: string) =>
  new CatalogClient({ baseUrl: env('NAIVE_PEER_CATALOG_URL'), apiKey, rate });
const secret = env('NAIVE_PEER_WEBHOOK_SECRET');
/** Shop domain -> its catalog API key (`tenants`); unset: the one shop of NAIVE_PEER_CATALOG_API_KEY. */
const shops = process.env.NAIVE_PEER_SHOPS
  ? (JSON.parse(process.env.NAIVE_PEER_SHOPS) as Record<string, string>)
  : null;
const clients: CatalogClient[] = [];
const peers = new Map<string, NaivePeer>();
if (shops === null) {
  const catalog = clientFor(env('NAIVE_PEER_CATALOG_API_KEY'));
  clients.push(catalog);
  peers.set('', new NaivePeer(secret, catalog));
} else {
  for (const [domain, apiKey] of Object.entries(shops)) {
    const catalog = clientFor(apiKey);
    clients.push(catalog);
    peers.set(domain, new NaivePeer(secret, catalog));
  }
}
const server = createServer((req, res) => {
  const domain = shops === null ? '' : String(req.headers['x-shopify-shop-domain'] ?? '');
  const peer = peers.get(domain);
  if (peer === undefined) {
    res.writeHead(404, { 'Content-Type': 'application/json' }).end('{"error":"unknown shop"}');
    return;
  }
  void peer.handle(req, res);
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.send?.({ type: 'ready', url: `http://127.0.0.1:${port}` });
});
/** Every shop's stats added up. */
function total(): NaivePeerStats {
  const sum: NaivePeerStats = { deliveries: 0, rejected: 0, failed: 0, catalogCalls: 0 };
  for (const peer of peers.values()) {
    sum.deliveries += peer.stats.deliveries;
    sum.rejected += peer.stats.rejected;
    sum.failed += peer.stats.failed;
    sum.catalogCalls += peer.stats.catalogCalls;
  }
  return sum;
}
process.on('message', (message: { id: number; type: string }) => {
  if (message.type === 'stats') process.send?.({ id: message.id, result: total() });
  if (message.type === 'statsByShop')
    process.send?.({
      id: message.id,
      result: Object.fromEntries([...peers].map(([domain, peer]) => [domain, peer.stats])),
    });
  if (message.type === 'memory') process.send?.({ id: message.id, result: process.memoryUsage().rss });
});
process.on('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
  void Promise.all(clients.map((c) => c.close())).finally(() => process.exit(0));
});
