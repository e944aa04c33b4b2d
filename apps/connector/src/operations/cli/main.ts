import 'reflect-metadata';
import { runCli } from './connector-cli.js';

// The command line's entry (`npm run connector -- <command>`): environment -> config once, in
// runCli; the exit code is the command's.
const code = await runCli(process.argv.slice(2), process.env, {
  line: (text = '') => process.stdout.write(`${text}\n`),
  warn: (text) => process.stderr.write(`${text}\n`),
  progress: process.stderr,
});
process.exit(code);
