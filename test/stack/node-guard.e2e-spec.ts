import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { nodeVersionProblem, requiredNodeVersion } from '../../scripts/check-node.mjs';
import { startProcess } from './support/stack-process.js';

// The machine's own Node.js when it is too old (Debian's is 20 here): the real thing, not a fake.
const SYSTEM_NODE = '/usr/bin/node';
const systemNodeVersion = existsSync(SYSTEM_NODE)
  ? execFileSync(SYSTEM_NODE, ['--version'], { encoding: 'utf8' }).trim()
  : null;
const oldNode = systemNodeVersion !== null && nodeVersionProblem(systemNodeVersion) !== null;
const ONE_LINE =
  /^Node\.js v\d+\.\d+\.\d+ is too old for this project: it needs Node\.js 22\.12 or newer \(24 recommended\)\. Run "nvm use" \(it reads \.nvmrc\) or install Node\.js 24, then "npm install" again\.$/m;

describe('Node.js version guard', () => {
  it('takes the minimum from package.json engines', () => {
    expect(requiredNodeVersion()).toEqual([22, 12, 0]);
  });

  it('accepts 22.12 and newer, refuses older with one line saying what to do', () => {
    for (const ok of ['v22.12.0', 'v22.13.1', 'v23.0.0', 'v24.21.0', 'v30.1.2'])
      expect(nodeVersionProblem(ok)).toBeNull();
    for (const old of ['v22.11.9', 'v22.0.0', 'v20.20.2', 'v18.19.0', 'v12.0.0']) {
      const problem = nodeVersionProblem(old) as string;
      expect(problem).toMatch(ONE_LINE);
      expect(problem).toContain(old);
      expect(problem).not.toContain('\n');
    }
  });

  it('lets the current Node.js through silently', async () => {
    const run = startProcess(process.execPath, ['scripts/check-node.mjs']);
    expect(await run.exited).toEqual({ code: 0, signal: null });
    expect(run.output()).toBe('');
  });

  describe.skipIf(!oldNode)(`on the machine's own old Node.js (${systemNodeVersion})`, () => {
    // npm itself then runs on that Node, as for a newcomer whose default Node is old.
    const oldEnv = { PATH: `/usr/bin:${process.env.PATH}` };

    for (const args of [['test'], ['start'], ['run', 'test:unit'], ['run', 'start:catalog-sandbox']]) {
      it(`npm ${args.join(' ')} stops at once with the one line`, async () => {
        const started = Date.now();
        const run = startProcess('npm', args, oldEnv);
        const { code } = await run.exited;
        expect(code).not.toBe(0);
        expect(run.output()).toMatch(ONE_LINE);
        expect(run.output()).toContain(systemNodeVersion as string);
        // Nothing else ran: only npm's own lines ("> script") besides the one line.
        const others = run
          .output()
          .split('\n')
          .filter((line) => !/^(> |npm (warn|error)|$)/.test(line));
        expect(others).toEqual([expect.stringMatching(ONE_LINE)]);
        expect(Date.now() - started).toBeLessThan(30_000);
      });
    }

    for (const script of ['scripts/run-vitest.mjs', 'scripts/start-local-stack.mjs']) {
      it(`node ${script} refuses it too`, async () => {
        const run = startProcess(SYSTEM_NODE, [script]);
        expect((await run.exited).code).toBe(1);
        expect(run.output()).toMatch(ONE_LINE);
      });
    }
  });
});
