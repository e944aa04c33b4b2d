// The connector as the benchmarks run it: its own process, configured by the environment like
// main.ts (the bench always gives it a database), answering a few IPC requests: its memory, the
// settings it runs with. Started by bench/support/bench-stack.ts.
import 'reflect-metadata';
import { createConnector, loadConnectorConfig } from '../../apps/connector/src/index.js';

interface Request {
  id: number;
  type: 'memory' | 'settings';
}

const config = loadConnectorConfig(process.env);
const connector = await createConnector(config, { logger: ['error'] });
const url = await connector.listen();

process.on('message', (message: Request) => {
  if (message.type === 'memory') {
    process.send?.({ id: message.id, result: process.memoryUsage() });
  } else if (message.type === 'settings') {
    process.send?.({
      id: message.id,
      result: {
        syncConcurrency: config.sync.concurrency,
        enrichmentPollIntervalMs: config.enrichment.pollIntervalMs,
        activePollIntervalMs: config.enrichment.activePollIntervalMs,
        pollBudgetShare: config.enrichment.pollBudgetShare,
        debounceMs: config.sync.debounceMs,
        leadingEdge: config.sync.leadingEdge,
        watchlistIntervalMs: config.enrichment.watchlistIntervalMs,
        enrichmentOverlapMs: config.enrichment.overlapMs,
      },
    });
  }
});

let stopping = false;
process.on('SIGTERM', () => {
  if (stopping) return;
  stopping = true;
  void connector
    .close()
    .catch(() => undefined)
    .finally(() => process.exit(0));
});
process.send?.({ type: 'ready', url });
