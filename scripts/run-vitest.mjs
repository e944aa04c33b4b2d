// `npm test`'s test runner: `vitest run` with the given arguments, and an exit status that can
// never be 0 unless a finished run passed. Vitest alone has exited 0 after failures (its reporter
// crashed on an unsupported Node.js and the crash was swallowed), so this wrapper also trusts:
//   - its own reporter (vitest-guard-reporter.mjs, last in the list), which records how the run
//     ended: missing means an earlier reporter crashed or the run never finished;
//   - vitest's stderr, where an "Unhandled Error" banner means something broke outside a test.
// Usage: node scripts/run-vitest.mjs [vitest run options and filters]
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { assertSupportedNode } from './check-node.mjs';

assertSupportedNode();

const vitestBin = fileURLToPath(new URL('../node_modules/vitest/vitest.mjs', import.meta.url));
const guardReporter = fileURLToPath(new URL('./vitest-guard-reporter.mjs', import.meta.url));
const outcomeFile = join(tmpdir(), `vitest-guard-${process.pid}-${Date.now()}.json`);

const args = process.argv.slice(2);
const ownReporters = args.some((arg) => arg === '--reporter' || arg.startsWith('--reporter='));
const vitestArgs = [
  vitestBin,
  'run',
  ...args,
  // Reporters given on the command line replace the configured ones: keep the default output.
  ...(ownReporters ? [] : ['--reporter=default']),
  `--reporter=${guardReporter}`,
];

const BANNER = /⎯{2,}\s*Unhandled (?:Errors?|Rejections?)\s*⎯{2,}/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: matches terminal colour codes
const ANSI = /\u001b\[[0-9;]*m/g;
let sawUnhandledBanner = false;
let stderrTail = '';

const child = spawn(process.execPath, vitestArgs, {
  stdio: ['inherit', 'inherit', 'pipe'],
  env: { ...process.env, VITEST_GUARD_OUTCOME_FILE: outcomeFile },
});
child.stderr.on('data', (chunk) => {
  process.stderr.write(chunk);
  const text = stderrTail + chunk.toString('utf8').replace(ANSI, '');
  if (BANNER.test(text)) sawUnhandledBanner = true;
  stderrTail = text.slice(-200);
});
// Ctrl-C reaches vitest too (same process group); a TERM sent to this wrapper alone is passed on.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));

child.on('exit', (code, signal) => {
  const problems = verdict(code, signal);
  rmSync(outcomeFile, { force: true });
  if (problems.length > 0 && code === 0) {
    process.stderr.write(`\n[run-vitest] vitest exited 0, but ${problems.join('; ')}: failing the run.\n`);
  }
  process.exit(problems.length > 0 ? code || 1 : 0);
});

/** Why this run must not count as a success (empty when it passed). */
function verdict(code, signal) {
  if (signal) return [`vitest was stopped by ${signal}`];
  if (code !== 0) return [`vitest exited ${code}`];
  const problems = [];
  if (sawUnhandledBanner) problems.push('it reported an unhandled error');
  if (!existsSync(outcomeFile)) {
    problems.push('the run did not finish reporting (a reporter crashed, or the run was cut short)');
    return problems;
  }
  const outcome = JSON.parse(readFileSync(outcomeFile, 'utf8'));
  if (outcome.reason !== 'passed') problems.push(`the run ended "${outcome.reason}"`);
  if (outcome.failedModules > 0) problems.push(`${outcome.failedModules} test file(s) failed`);
  if (outcome.failedTests > 0) problems.push(`${outcome.failedTests} test(s) failed`);
  if (outcome.unhandledErrors > 0) problems.push(`${outcome.unhandledErrors} unhandled error(s)`);
  return problems;
}
