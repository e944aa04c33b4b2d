// The naive peer's process (bench/naive-peer/naive-peer.ts): configured by NAIVE_PEER_* variables,
// it listens on 127.0.0.1 and tells the benchmark its URL over IPC.
import type { AddressInfo } from 'node:net';
import { CatalogClient } from '#lib/catalog-client';
import { NaivePeer } from './naive-peer.js';

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
};
const catalog = new CatalogClient({
  baseUrl: env('NAIVE_PEER_CATALOG_URL'),
  apiKey: env('NAIVE_PEER_CATALOG_API_KEY'),
  rate: {
    ratePerSecond: Number(process.env.NAIVE_PEER_CATALOG_RATE_PER_SECOND ?? 4),
    burst: Number(process.env.NAIVE_PEER_CATALOG_RATE_BURST ?? 1),
  },
});
const peer = new NaivePeer(env('NAIVE_PEER_WEBHOOK_SECRET'), catalog);
const server = peer.server();
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.send?.({ type: 'ready', url: `http://127.0.0.1:${port}` });
});
process.on('message', (message: { id: number; type: string }) => {
  if (message.type === 'stats') process.send?.({ id: message.id, result: peer.stats });
  if (message.type === 'memory') process.send?.({ id: message.id, result: process.memoryUsage().rss });
});
process.on('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
  void catalog.close().finally(() => process.exit(0));
});
