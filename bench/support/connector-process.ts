// The connector as the benchmarks run it: its own process, configured by the environment like
// main.ts (the bench always gives it a database), answering a few IPC requests: enqueue product
// syncs through its own SyncEnqueuer, report its memory. Started by bench/support/bench-stack.ts.
import 'reflect-metadata';
import { SyncEnqueuer } from '../../apps/connector/src/inbox/sync-enqueuer.js';
import { createConnector, loadConnectorConfig } from '../../apps/connector/src/index.js';
import type { SyncProductPayload } from '../../apps/connector/src/queues/job-payloads.js';

interface Request {
  id: number;
  type: 'enqueue' | 'memory';
  payloads?: SyncProductPayload[];
}

const config = loadConnectorConfig(process.env);
const connector = await createConnector(config, { logger: ['error'] });
const url = await connector.listen();
const enqueuer = connector.app.get(SyncEnqueuer);

process.on('message', (message: Request) => {
  void (async () => {
    if (message.type === 'enqueue') {
      for (const payload of message.payloads ?? []) await enqueuer.enqueue(payload);
      process.send?.({ id: message.id, result: message.payloads?.length ?? 0 });
    } else if (message.type === 'memory') {
      process.send?.({ id: message.id, result: process.memoryUsage() });
    }
  })();
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
