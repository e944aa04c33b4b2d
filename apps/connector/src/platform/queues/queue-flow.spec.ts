import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readSources } from '../../../test/support/import-graph.js';
import { registrationCalls } from '../../../test/support/registrations.js';
import { QUEUE_FLOW } from './queue-flow.js';
import { JobName, QueueName } from './queue-names.js';

const SRC = fileURLToPath(new URL('../..', import.meta.url));

/** Each queue, the classes of `src/` that inject it (`@InjectQueue(QueueName.X)`), sorted. */
function injectors(sources: Map<string, string>): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const [path, text] of sources) {
    if (path === 'platform/queues/job-schedulers.ts') continue;
    const className = /export class (\w+)/.exec(text)?.[1] ?? path;
    for (const match of text.matchAll(/@InjectQueue\(QueueName\.(\w+)\)/g)) {
      const queue = QueueName[match[1] as keyof typeof QueueName];
      found.set(queue, [...new Set([...(found.get(queue) ?? []), className])].sort());
    }
  }
  return found;
}

describe('the flow table (queue-flow.ts) against the sources', () => {
  const sources = readSources(SRC);

  it('lists exactly the classes that inject each queue (who enqueues it, who reads it)', () => {
    const found = injectors(sources);
    for (const row of QUEUE_FLOW) {
      expect({ queue: row.queue, injectedBy: found.get(row.queue) ?? [] }).toEqual({
        queue: row.queue,
        injectedBy: [...row.enqueuedBy, ...(row.readBy ?? [])].sort(),
      });
    }
  });

  it("names each queue's job file, which declares the job class on that queue", () => {
    for (const row of QUEUE_FLOW) {
      const text = sources.get(row.job.file) ?? '';
      const key = Object.entries(QueueName).find(([, name]) => name === row.queue)?.[0];
      expect(text, row.job.file).toMatch(new RegExp(`@Processor\\(QueueName\\.${key}\\b`));
      expect(text, row.job.file).toMatch(new RegExp(`export class ${row.job.className}\\b`));
    }
  });

  it('lists the after-sync listeners in the order connector.module.ts gives them to SyncEvents', () => {
    const assembly = sources.get('connector.module.ts') ?? '';
    const listed = /provide: SyncEvents,\s*inject: \[([^\]]*)\]/.exec(assembly)?.[1] ?? '';
    const names = listed
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean);
    for (const row of QUEUE_FLOW)
      expect(row.after ?? [], row.queue).toEqual(row.queue === 'sync-product' ? names : []);
    expect(names).toEqual(['MediaHooks', 'ResyncProgress', 'MerchantEdits']);
  });

  it("names the class registering each queue's replay handler, for the queues whose failures land in the inbox", () => {
    // A failure's job kind is its job's name, the queue's name: `replayBy` is per queue.
    expect(Object.entries(JobName)).toEqual(Object.entries(QueueName));
    const calls = registrationCalls(sources, 'ReplayRegistry', 'register', (args) => {
      const key = /^\s*JobName\.(\w+),/.exec(args)?.[1];
      return key === undefined ? undefined : JobName[key as keyof typeof JobName];
    });
    const found = calls.map((c) => ({ queue: c.key ?? `(unread: ${c.file})`, replayBy: c.className }));
    const listed = QUEUE_FLOW.filter((row) => row.replayBy !== null).map((row) => ({
      queue: row.queue,
      replayBy: row.replayBy,
    }));
    const byQueue = (a: { queue: string }, b: { queue: string }) => a.queue.localeCompare(b.queue);
    expect(found.sort(byQueue)).toEqual(listed.sort(byQueue));
    for (const row of QUEUE_FLOW) expect(row.replayBy !== null, row.queue).toBe(row.retry.failuresInbox);
  });
});
