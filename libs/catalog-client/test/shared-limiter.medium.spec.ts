import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { uniqueId } from '#lib/testing';
import { type CatalogSandboxHarness, startCatalogSandbox } from '#testing/catalog-sandbox';
import type { WorkerConfig } from './fixtures/shared-budget-worker.js';
import { maxInWindow, portalFor } from './sandbox-support.js';

const WORKER = fileURLToPath(new URL('./fixtures/shared-budget-worker.ts', import.meta.url));
const HOOKS = fileURLToPath(new URL('./fixtures/ts-resolve-hooks.mjs', import.meta.url));

/** Starts one client process; resolves once it is ready, with a function that runs its calls. */
function startWorker(config: WorkerConfig): Promise<() => Promise<{ ok: number; failed: number }>> {
  const child = fork(WORKER, [JSON.stringify(config)], {
    execArgv: ['--conditions=source', '--import', HOOKS, '--no-warnings'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`worker exited early (${code})`)));
    child.once('message', (message) => {
      if (message !== 'ready') return reject(new Error(`unexpected message ${JSON.stringify(message)}`));
      resolve(
        () =>
          new Promise((done, fail) => {
            child.removeAllListeners('exit');
            child.once('exit', (code) => code !== 0 && fail(new Error(`worker exited with ${code}`)));
            child.once('message', (result) => done(result as { ok: number; failed: number }));
            child.send('go');
          }),
      );
    });
  });
}

// Two client processes ("replicas"), each with its own limiter instance and connection, share
// one budget through Redis or PostgreSQL. Real clocks (processes cannot share a ManualClock), the
// stores' own time; the budget is judged from the sandbox's request log: 12 calls at 10 per
// second with burst 1 never put more than rate + burst = 11 in any 1 s window.
describe('shared rate limiter across processes', () => {
  let sandbox: CatalogSandboxHarness;
  const queueBackend = inject('queueBackend');
  const rate = { ratePerSecond: 10, burst: 1 };

  beforeAll(async () => {
    sandbox = await startCatalogSandbox();
  });
  afterAll(() => sandbox.close());

  async function runTwoProcesses(store: (n: number) => WorkerConfig['store']) {
    const account = await sandbox.createAccount();
    const portal = portalFor(sandbox, account.id);
    const workers = await Promise.all(
      [0, 1].map((n) =>
        startWorker({ baseUrl: sandbox.url, apiKey: account.apiKey, store: store(n), calls: 6, ...rate }),
      ),
    );
    const results = await Promise.all(workers.map((go) => go()));
    const log = await portal.requests();
    return { results, times: log.map((r) => r.time), statuses: log.map((r) => r.status) };
  }

  const judge = ({ results, times, statuses }: Awaited<ReturnType<typeof runTwoProcesses>>) => {
    expect(results).toEqual([
      { ok: 6, failed: 0 },
      { ok: 6, failed: 0 },
    ]);
    expect(statuses).toEqual(Array(12).fill(200));
    expect(maxInWindow(times, 1_000)).toBeLessThanOrEqual(rate.ratePerSecond + rate.burst);
    expect(maxInWindow(times, 500)).toBeLessThanOrEqual(6);
  };

  // `.ci/run` provides REDIS_URL on this machine; without it there is no Redis to share.
  it.skipIf(queueBackend.kind !== 'redis')('Redis: two processes stay within one budget', async () => {
    const prefix = `${uniqueId('rl')}:`;
    judge(await runTwoProcesses(() => ({ kind: 'redis', url: queueBackend.url, prefix })));
  });

  it('PostgreSQL: two processes stay within one budget', async () => {
    const schema = uniqueId('rl').replace('-', '_');
    judge(await runTwoProcesses(() => ({ kind: 'postgres', url: inject('databaseUrl'), schema })));
  });

  it('control: with separate in-process limiters the same two processes exceed it', async () => {
    const { times } = await runTwoProcesses(() => ({ kind: 'memory' }));
    expect(maxInWindow(times, 1_000)).toBe(12);
  });
});
