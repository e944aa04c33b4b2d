import { describe, expect, it } from 'vitest';
import { repoRoot, startProcess } from './support/stack-process.js';

// `npm test` runs vitest through scripts/run-vitest.mjs; here it runs a tiny fixture project.
const fixture = 'test/stack/fixtures/vitest-guard';

async function guardedRun(files: string[], reporters: string[] = []) {
  const args = [
    'scripts/run-vitest.mjs',
    '--root',
    fixture,
    '--config',
    `${repoRoot}${fixture}/vitest.config.mjs`,
  ];
  for (const reporter of reporters) args.push(`--reporter=${repoRoot}${fixture}/${reporter}`);
  const run = startProcess(process.execPath, [...args, ...files]);
  const { code } = await run.exited;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: terminal colour codes
  return { code, output: run.output().replace(/\u001b\[[0-9;]*m/g, '') };
}

async function plainVitest(files: string[], reporters: string[]) {
  const args = [
    'node_modules/vitest/vitest.mjs',
    'run',
    '--root',
    fixture,
    '--config',
    `${repoRoot}${fixture}/vitest.config.mjs`,
  ];
  for (const reporter of reporters) args.push(`--reporter=${repoRoot}${fixture}/${reporter}`);
  const run = startProcess(process.execPath, [...args, ...files]);
  return (await run.exited).code;
}

describe('npm test: the vitest exit-status guard', () => {
  it('exits 0 when every test passed', async () => {
    const { code, output } = await guardedRun(['passing']);
    expect(output).toMatch(/Tests\s+1 passed/);
    expect(code).toBe(0);
  });

  it('fails on a failed test and on a test file that cannot load', async () => {
    expect((await guardedRun(['failing'])).code).toBe(1);
    expect((await guardedRun(['passing', 'broken-file'])).code).toBe(1);
  });

  it('fails when a reporter crashes, even with every test passing', async () => {
    const { code } = await guardedRun(['passing'], ['crashing-reporter.mjs']);
    expect(code).not.toBe(0);
  });

  it('fails when vitest itself exits 0 after a failed test (a false green)', async () => {
    // The fixture really produces the false green without the guard...
    expect(await plainVitest(['failing'], ['exit-zero-reporter.mjs'])).toBe(0);
    // ...and the guard turns it red, saying why.
    const { code, output } = await guardedRun(['failing'], ['exit-zero-reporter.mjs']);
    expect(code).toBe(1);
    expect(output).toContain(
      '[run-vitest] vitest exited 0, but the run ended "failed"; 1 test file(s) failed; 1 test(s) failed',
    );
  });

  it('fails when vitest exits 0 after a reporter crashed (the Node 20 case)', async () => {
    expect(await plainVitest(['passing'], ['exit-zero-reporter.mjs', 'crashing-reporter.mjs'])).toBe(0);
    const { code, output } = await guardedRun(
      ['passing'],
      ['exit-zero-reporter.mjs', 'crashing-reporter.mjs'],
    );
    expect(code).toBe(1);
    expect(output).toContain(
      'the run did not finish reporting (a reporter crashed, or the run was cut short)',
    );
  });

  it('fails when vitest exits 0 with a file that failed to load', async () => {
    expect(await plainVitest(['broken-file'], ['exit-zero-reporter.mjs'])).toBe(0);
    const { code, output } = await guardedRun(['passing', 'broken-file'], ['exit-zero-reporter.mjs']);
    expect(code).toBe(1);
    expect(output).toContain('1 test file(s) failed');
  });
});
