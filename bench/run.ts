// `npm run bench -- <name>... | all [--smoke] [--cpu-prof] [--jobs=N]`: runs benchmarks of bench/, each on a
// stack of its own, and prints for each a short table and ONE JSON line (bench/README.md).
// `npm run bench` builds first (swc, like npm start) and runs this from dist/bench/.

import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { catchUp } from './catch-up.js';
import { drift } from './drift.js';
import { freshness } from './freshness.js';
import { ingest } from './ingest.js';
import { initialSync } from './initial-sync.js';
import { media } from './media.js';
import { memory } from './memory.js';
import { search } from './search.js';
import { storm } from './storm.js';
import { CONNECTOR_NODE_ARGS } from './support/bench-stack.js';
import { type Benchmark, type BenchResult, NeedsFeature } from './support/benchmark.js';
import { formatTable, round } from './support/figures.js';
import { tenants } from './tenants.js';

const BENCHMARKS: Benchmark[] = [
  ingest,
  storm,
  search,
  initialSync,
  memory,
  media,
  catchUp,
  freshness,
  drift,
  tenants,
];
/** The vitest benchmarks (ops/s of one operation), run with `vitest bench`. */
const VITEST_BENCHES = ['catalog-search.bench.ts', 'catalog-bulk-load.bench.ts'];

const args = process.argv.slice(2);
const smoke = args.includes('--smoke');
const profile = args.includes('--cpu-prof');
const names = args.filter((a) => !a.startsWith('--'));
const known = [...BENCHMARKS.map((b) => b.name), ...VITEST_BENCHES.map((f) => f.replace('.ts', ''))];
if (names.length === 0 || names.some((n) => n !== 'all' && !known.includes(n))) {
  process.stderr.write(
    `usage: npm run bench -- <name>... | all [--smoke] [--cpu-prof] [--jobs=N]\n  benchmarks: ${known.join(', ')}\n`,
  );
  process.exit(2);
}
const wanted = names.includes('all') ? known : names;
const root = fileURLToPath(new URL('../../', import.meta.url));
const profileDir = join(root, 'bench', 'profiles');

let failed = 0;
/**
 * `--jobs=N` runs N benchmarks at a time, each on its own stack (the smoke test's `--jobs=2`):
 * their figures then share the machine, so real measurements keep the default of one.
 */
const jobs = Math.max(
  1,
  Number(args.find((a) => a.startsWith('--jobs='))?.slice('--jobs='.length) ?? 1) || 1,
);
const queue = [...wanted];
await Promise.all(
  Array.from({ length: Math.min(jobs, queue.length) }, async () => {
    for (let name = queue.shift(); name !== undefined; name = queue.shift()) {
      // One write per benchmark: with --jobs, their tables and JSON lines never interleave.
      process.stdout.write(await runOne(name));
    }
  }),
);
if (profile) process.stdout.write(`\nCPU profiles of the connector: ${profileDir}\n`);
process.exit(failed > 0 ? 1 : 0);

/** Runs one benchmark; resolves to everything it prints (its table and its one JSON line). */
async function runOne(name: string): Promise<string> {
  const benchmark = BENCHMARKS.find((b) => b.name === name);
  const started = performance.now();
  const loadBefore = loadavg()[0] as number;
  let out = `\n== ${name}${smoke ? ' (smoke)' : ''}\n`;
  try {
    const result = benchmark
      ? await benchmark.run({
          smoke,
          // `BENCH_CONNECTOR_NODE_ARGS` replaces the V8 flags NODE_OPTIONS refuses (production's
          // `--heap-growing-percent=20`; `BENCH_CONNECTOR_NODE_ARGS= ` for none).
          connectorNodeArgs: [
            ...(process.env.BENCH_CONNECTOR_NODE_ARGS?.split(' ').filter((arg) => arg !== '') ??
              CONNECTOR_NODE_ARGS),
            ...(profile ? ['--cpu-prof', `--cpu-prof-dir=${join(profileDir, name)}`] : []),
          ],
          log: (line) => process.stderr.write(`  ${line}\n`),
        })
      : await vitestBench(`${name}.ts`);
    out += `${formatTable(result.table)}\n`;
    const elapsedS = Math.round((performance.now() - started) / 100) / 10;
    // The machine's 1-minute load average before and after: other work sharing the cores shows here.
    const machineLoad = [round(loadBefore, 1), round(loadavg()[0] as number, 1)];
    return `${out}${JSON.stringify({ bench: name, smoke, elapsedS, machineLoad, ...result.figures })}\n`;
  } catch (error) {
    if (error instanceof NeedsFeature) {
      out += `not run: ${error.message}\n`;
      return `${out}${JSON.stringify({ bench: name, smoke, needs: error.feature })}\n`;
    }
    failed++;
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    out += `failed: ${message}\n`;
    return `${out}${JSON.stringify({ bench: name, smoke, error: String(error) })}\n`;
  }
}

/** Runs one of the vitest benchmarks and reads its JSON output (ops/s, mean and p99 per case). */
async function vitestBench(file: string): Promise<BenchResult> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-vitest-'));
  const output = join(dir, 'out.json');
  try {
    const code = await new Promise<number | null>((resolve) => {
      const child = spawn(
        process.execPath,
        [
          join(root, 'node_modules/vitest/vitest.mjs'),
          'bench',
          '--run',
          `bench/${file}`,
          '--reporter=json',
          `--outputFile=${output}`,
        ],
        {
          cwd: root,
          stdio: ['ignore', 'ignore', 'inherit'],
          env: {
            ...process.env,
            ...(smoke ? { BENCH_PRODUCTS: '2000', BENCH_TIME_MS: '200', BENCH_ITERATIONS: '2' } : {}),
          },
        },
      );
      child.on('exit', resolve);
    });
    if (code !== 0) throw new Error(`vitest bench ${file} exited with ${code}`);
    const json = JSON.parse(readFileSync(output, 'utf8')) as VitestJson;
    const tasks = json.testResults.flatMap((file) =>
      file.assertionResults.flatMap((test) => (test.benchmarks ?? []).flatMap((b) => b.tasks)),
    );
    if (tasks.length === 0) throw new Error(`vitest bench ${file} reported no benchmark`);
    const results = tasks.map((t) => ({
      name: t.name,
      opsPerSecond: Math.round(t.throughput.mean * 10) / 10,
      p50Ms: Math.round(t.latency.p50 * 1000) / 1000,
      p99Ms: Math.round(t.latency.p99 * 1000) / 1000,
    }));
    return {
      figures: { products: smoke ? 2000 : 100_000, results },
      table: {
        head: ['case', 'ops/s', 'p50 ms', 'p99 ms'],
        rows: results.map((r) => [r.name, r.opsPerSecond, r.p50Ms, r.p99Ms]),
      },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The part of vitest's JSON report (`--reporter=json`) that holds benchmark results. */
interface VitestJson {
  testResults: Array<{
    assertionResults: Array<{
      benchmarks?: Array<{
        tasks: Array<{ name: string; latency: { p50: number; p99: number }; throughput: { mean: number } }>;
      }>;
    }>;
  }>;
}
