import { fileURLToPath } from 'node:url';
import swc from 'unplugin-swc';
import { defineConfig } from 'vitest/config';

// `#lib/<name>` and `#testing/<app>` (package.json "imports") point at dist for Node; tests use
// the TypeScript sources.
const libs = fileURLToPath(new URL('./libs/', import.meta.url));
const apps = fileURLToPath(new URL('./apps/', import.meta.url));
const alias = [
  { find: /^#lib\/([\w-]+)$/, replacement: `${libs}$1/src/index.ts` },
  { find: /^#testing\/([\w-]+)$/, replacement: `${apps}$1/src/testing.ts` },
];

/**
 * Test files run two at a time in the unit and e2e tiers, whatever the core count (Vitest's
 * default is cores - 1: one on a 2-core CI machine). Each e2e file has its own schema, queue
 * namespace, ports and shops, and spends most of its time waiting on HTTP and queues, so two
 * overlap well even on two cores.
 */
const WORKERS = 2;
/** e2e files run alone (project `e2e-alone`): their subject is timing. */
const ALONE = [
  'apps/connector/test/shop-auth.e2e-spec.ts',
  'apps/connector/test/queue-state-loss.e2e-spec.ts',
];

export default defineConfig({
  // Decorator metadata must survive the transform, or Nest's dependency injection breaks:
  // unplugin-swc compiles TypeScript with the build's settings (.swcrc).
  plugins: [swc.vite({ module: { type: 'es6' } })],
  resolve: { alias },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          sequence: { groupOrder: 0 },
          maxWorkers: WORKERS,
          include: ['apps/**/*.spec.ts', 'libs/**/*.spec.ts'],
          // Benchmarks run only with `vitest bench` (bench/README.md), in this project alone.
          benchmark: { include: ['bench/**/*.bench.ts'] },
          exclude: ['**/*.medium.spec.ts', '**/node_modules/**'],
        },
      },
      {
        extends: true,
        test: {
          name: 'medium',
          // One at a time: a few start and stop embedded PostgreSQL servers, which is slow under load.
          sequence: { groupOrder: 1 },
          maxWorkers: 1,
          benchmark: { include: [] },
          include: ['apps/**/*.medium.spec.ts', 'libs/**/*.medium.spec.ts'],
          globalSetup: ['libs/testing/src/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          sequence: { groupOrder: 2 },
          maxWorkers: WORKERS,
          benchmark: { include: [] },
          include: ['test/**/*.e2e-spec.ts', 'apps/**/test/**/*.e2e-spec.ts'],
          exclude: ['test/stack/**', '**/node_modules/**', ...ALONE],
          globalSetup: ['libs/testing/src/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          // The e2e files whose timing is their subject (1 s tokens, queue loss), one at a time
          // after the others: beside another file a renewal could come late.
          name: 'e2e-alone',
          sequence: { groupOrder: 3 },
          maxWorkers: 1,
          benchmark: { include: [] },
          include: ALONE,
          globalSetup: ['libs/testing/src/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          // The repository as a newcomer uses it: npm scripts, the local stack in real processes
          // (from the build in dist/, made once here), every README shell example, docker-compose.
          name: 'stack',
          // One at a time: these start whole stacks in processes, some on the README's fixed ports.
          sequence: { groupOrder: 4 },
          maxWorkers: 1,
          benchmark: { include: [] },
          include: ['test/stack/**/*.e2e-spec.ts'],
          // PostgreSQL and the queue backend too: connector processes of the CLI and replica
          // tests share them (DATABASE_URL and REDIS_URL when given, else an embedded PostgreSQL).
          globalSetup: ['test/stack/support/build-once.global.ts', 'libs/testing/src/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
