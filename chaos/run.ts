// `npm run chaos -- [<scenario>... | all] [--smoke] [--seed <n>]`: runs the faults the stack must
// survive on its own (chaos/README.md), each on a stack of its own, and prints a table and ONE JSON
// line. `npm run chaos` builds first (swc, like npm run bench) and runs this from dist/chaos/.
import { loadavg } from 'node:os';
import { startLocalPostgres } from '#lib/local-postgres';
import { formatTable } from '../bench/support/figures.js';
import { catalogFaults } from './scenarios/catalog-faults.js';
import { driftDuringSync } from './scenarios/drift-during-sync.js';
import { killDuringSync } from './scenarios/kill-during-sync.js';
import { killDuringWriteBack } from './scenarios/kill-during-write-back.js';
import { postgresStopped } from './scenarios/postgres-stopped.js';
import { redisLost } from './scenarios/redis-lost.js';
import type { ChaosInfrastructure } from './support/chaos-stack.js';
import { findRedisServer, startOwnRedis } from './support/redis-server.js';
import type { Scenario, ScenarioResult } from './support/scenario.js';
import { seededRandom } from './support/seeded-random.js';

const SCENARIOS: Scenario[] = [
  killDuringSync,
  catalogFaults,
  postgresStopped,
  redisLost,
  killDuringWriteBack,
  driftDuringSync,
];

const args = process.argv.slice(2);
const smoke = args.includes('--smoke');
const seedAt = args.indexOf('--seed');
const seedArg = seedAt >= 0 ? args[seedAt + 1] : undefined;
const names = args.filter((a, i) => !a.startsWith('--') && !(seedAt >= 0 && i === seedAt + 1));
const known = SCENARIOS.map((s) => s.name);
if (
  (seedAt >= 0 && !/^\d{1,10}$/.test(seedArg ?? '')) ||
  names.some((n) => n !== 'all' && !known.includes(n))
) {
  process.stderr.write(
    `usage: npm run chaos -- [<scenario>... | all] [--smoke] [--seed <n>]\n  scenarios: ${known.join(', ')}\n`,
  );
  process.exit(2);
}
const seed = seedArg !== undefined ? Number(seedArg) : Math.floor(Math.random() * 1_000_000_000);
const wanted =
  names.length === 0 || names.includes('all') ? SCENARIOS : SCENARIOS.filter((s) => names.includes(s.name));
process.stdout.write(
  `chaos run, seed ${seed}${smoke ? ' (smoke)' : ''} (again: npm run chaos -- --seed ${seed}${smoke ? ' --smoke' : ''})\n`,
);

const started = performance.now();
const postgres = await startLocalPostgres({ database: 'catalog_connector_chaos' });
const redisBinary = findRedisServer();
const redis = redisBinary ? await startOwnRedis(redisBinary) : null;
const infra: ChaosInfrastructure = { postgres, redis };
const results: Record<string, ScenarioResult | { error: string }> = {};
let failed = 0;
try {
  for (const scenario of wanted) {
    process.stderr.write(`\n== ${scenario.name}${smoke ? ' (smoke)' : ''}: ${scenario.summary}\n`);
    const scenarioStarted = performance.now();
    try {
      // Each scenario draws from its own stream: running one alone draws what it drew in the whole run.
      const random = seededRandom(seed + SCENARIOS.indexOf(scenario) * 104_729);
      const result = await scenario.run({
        smoke,
        random,
        infra,
        log: (line) => process.stderr.write(`  ${line}\n`),
      });
      results[scenario.name] = result;
      if ('figures' in result) {
        result.figures.elapsedS = Math.round((performance.now() - scenarioStarted) / 100) / 10;
        if (!held(result.figures)) failed++;
      }
    } catch (error) {
      failed++;
      const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
      process.stderr.write(`  failed: ${message}\n`);
      results[scenario.name] = { error: String(error) };
    }
  }
} finally {
  await redis?.stop();
  await postgres.stop();
}

const COLUMNS = [
  'sent',
  'acknowledged',
  'synced',
  'duplicates',
  'lostDeliveries',
  'lostUpdates',
  'valuesWrittenTwice',
  'convergeMs',
  'failuresOpen',
  'restartsByHand',
] as const;
process.stdout.write(
  `${formatTable({
    head: ['scenario', ...COLUMNS, 'held'],
    rows: Object.entries(results).map(([name, result]) => {
      if ('needs' in result) return [name, ...COLUMNS.map(() => null), `needs ${result.needs}`];
      if ('error' in result) return [name, ...COLUMNS.map(() => null), 'error'];
      const f = result.figures;
      return [
        name,
        ...COLUMNS.map((c) => (c === 'synced' ? `${f.synced}/${f.products}` : (f[c] as number | null))),
        held(f) ? 'yes' : 'NO',
      ];
    }),
  })}\n`,
);
const elapsedS = Math.round((performance.now() - started) / 100) / 10;
const scenarios = Object.fromEntries(
  Object.entries(results).map(([name, result]) => [name, 'figures' in result ? result.figures : result]),
);
process.stdout.write(
  `${JSON.stringify({ chaos: 'run', seed, smoke, elapsedS, machineLoad: loadavg()[0], queues: redis ? 'redis' : 'postgres', scenarios })}\n`,
);
process.exit(failed > 0 ? 1 : 0);

/**
 * The issue's bar: nothing duplicated, lost or written twice, converged, no restart by hand; and
 * (`drift-during-sync`) no live record deleted by a drift repair.
 */
function held(f: Record<string, unknown>): boolean {
  return (
    (f.liveRecordsDeleted ?? 0) === 0 &&
    f.duplicates === 0 &&
    f.lostDeliveries === 0 &&
    f.lostUpdates === 0 &&
    f.valuesWrittenTwice === 0 &&
    f.converged === true &&
    f.restartsByHand === 0
  );
}
