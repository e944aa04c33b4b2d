import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { uniqueId } from '#lib/testing';
import { type CatalogSandboxHarness, startCatalogSandbox } from '#testing/catalog-sandbox';
import type { WorkerConfig } from './fixtures/shared-budget-worker.js';
import { maxSurelyInWindow, portalFor } from './sandbox-support.js';

const WORKER = fileURLToPath(new URL('./fixtures/shared-budget-worker.ts', import.meta.url));
const HOOKS = fileURLToPath(new URL('./fixtures/ts-resolve-hooks.mjs', import.meta.url));

/** What a worker reports: its calls' outcomes and, per grant, `[before, after]` its store call. */
interface WorkerResult {
  ok: number;
  failed: number;
  grants: Array<[number, number]>;
}

/** Starts one client process; resolves once it is ready, with a function that runs its calls. */
function startWorker(config: WorkerConfig): Promise<() => Promise<WorkerResult>> {
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
            child.once('message', (result) => done(result as WorkerResult));
            child.send('go');
          }),
      );
    });
  });
}

// Two client processes ("replicas"), each with its own limiter instance and connection, share
// one budget through Redis or PostgreSQL. Real clocks (processes cannot share a ManualClock), the
// stores' own time. The budget is judged on the grants, not on the sandbox's arrival times
// (loopback and scheduling jitter on a loaded machine bunch correctly granted requests): each
// worker reports the wall-clock interval around every granting store call, the store's grant
// instant lies inside it, and `maxSurelyInWindow` counts only grants surely inside a window, so
// load can widen the brackets but never make a correct limiter look over budget. 12 calls at 10
// per second with burst 1: never more than rate + burst = 11 in any 1 s window, 6 in any 500 ms,
// and the last grant at least 1 s after the first (separate limiters: all 12 in about 400 ms).
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
    const grants = results.flatMap((r) => r.grants);
    return { results, grants, statuses: log.map((r) => r.status) };
  }

  const judge = ({ results, grants, statuses }: Awaited<ReturnType<typeof runTwoProcesses>>) => {
    expect(results.map(({ ok, failed }) => ({ ok, failed }))).toEqual([
      { ok: 6, failed: 0 },
      { ok: 6, failed: 0 },
    ]);
    expect(statuses).toEqual(Array(12).fill(200));
    expect(grants).toHaveLength(12);
    expect(maxSurelyInWindow(grants, 1_000)).toBeLessThanOrEqual(rate.ratePerSecond + rate.burst);
    expect(maxSurelyInWindow(grants, 500)).toBeLessThanOrEqual(6);
    // The latest a grant can have been minus the earliest: the true span is no longer than this.
    const span = Math.max(...grants.map(([, to]) => to)) - Math.min(...grants.map(([from]) => from));
    expect(span).toBeGreaterThanOrEqual(1_000 - 5);
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
    const { grants } = await runTwoProcesses(() => ({ kind: 'memory' }));
    // What `judge` would reject: every grant surely inside one 1 s window (in-process grants are
    // bracketed to the millisecond, so jitter cannot hide them here).
    expect(maxSurelyInWindow(grants, 1_000)).toBe(12);
  });
});
