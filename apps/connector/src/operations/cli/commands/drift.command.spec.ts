import { describe, expect, it } from 'vitest';
import { runCli } from '../connector-cli.js';
import type { CliOutput } from '../context/cli-context.js';

// The drift commands' usage, without a connector: listed in the help, and a repair refused
// unless the operator names what to repair (one way).
describe('drift command', () => {
  const run = async (...args: string[]) => {
    const lines: string[] = [];
    const out: CliOutput = {
      line: (t = '') => lines.push(t),
      warn: (t) => lines.push(t),
      progress: process.stderr,
    };
    const code = await runCli(args, {}, out);
    return { code, text: lines.join('\n') };
  };

  it('is listed in the help, with run, show and repair', async () => {
    expect((await run('--help')).text).toMatch(/^ {2}drift /m);
    const help = (await run('drift', '--help')).text;
    for (const sub of ['run', 'show', 'repair']) expect(help).toMatch(new RegExp(`^ {2}${sub} `, 'm'));
  });

  it('refuses a repair without a choice, or with two', async () => {
    const none = await run('drift', 'repair', '12');
    expect(none.code).toBe(2);
    expect(none.text).toContain('choose the findings: --finding <id>..., --kind <kind> or --all');
    expect((await run('drift', 'repair', '12', '--all', '--finding', '3')).code).toBe(2);
  });
});
