import { Command, CommanderError } from 'commander';
import type { Env } from '#lib/config';
import { alertsCommand } from './commands/alerts.command.js';
import { checkConfigCommand } from './commands/check-config.command.js';
import { doctorCommand } from './commands/doctor.command.js';
import { driftCommand } from './commands/drift.command.js';
import { failuresCommand } from './commands/failures.command.js';
import { linkCommand } from './commands/link.command.js';
import { mappingCommand } from './commands/mapping.command.js';
import { mappingGapsCommand } from './commands/mapping-gaps.command.js';
import { previewCommand } from './commands/preview.command.js';
import { reconcileCommand } from './commands/reconcile.command.js';
import { registerWebhooksCommand } from './commands/register-webhooks.command.js';
import { replayCommand } from './commands/replay.command.js';
import { resyncCommand } from './commands/resync.command.js';
import { shopsCommand } from './commands/shops.command.js';
import { statusCommand } from './commands/status.command.js';
import { syncCommand } from './commands/sync.command.js';
import { writeBackCommand } from './commands/write-back.command.js';
import { type CliOutput, contextFactory } from './context/cli-context.js';
import { cliEnvironment } from './context/cli-environment.js';
import { CliError, ExitCode } from './context/cli-error.js';

const HELP_HINT = '(npm run connector -- --help shows the commands)';

/**
 * The operators' command line (`npm run connector -- <command>`, docs/cli.md, "Command line"): parses
 * the arguments with commander, runs one command, and resolves to the exit code: 0 ok, 1 a
 * failure or problems found (the admin API's message printed, never a stack), 2 a usage error.
 * Apart from `main.ts` so a test could run it with its own environment and output.
 */
export async function runCli(argv: readonly string[], env: Env, out: CliOutput): Promise<ExitCode> {
  const contextOf = contextFactory(cliEnvironment(env), out);
  const program = new Command('connector')
    .description('Operate the catalog connector: check its configuration, webhooks, failures, resyncs.')
    .option(
      '--url <url>',
      'the connector to call (default http://127.0.0.1:<CONNECTOR_ADMIN_PORT or PORT>, the local stack: 3000)',
    )
    .exitOverride()
    .configureOutput({
      writeOut: (text) => out.line(text.trimEnd()),
      writeErr: (text) => out.warn(text.trimEnd()),
    })
    .showHelpAfterError(HELP_HINT)
    .addHelpText(
      'after',
      "\nThe configuration is the connector's own (CONNECTOR_*, apps/connector/docs/configuration.md); without\n" +
        "CONNECTOR_SHOPS it is the local stack's (npm start). Exit codes: 0 ok, 1 failure, 2 usage error.",
    );
  for (const command of [
    checkConfigCommand(contextOf),
    doctorCommand(contextOf),
    registerWebhooksCommand(contextOf),
    failuresCommand(contextOf),
    replayCommand(contextOf),
    statusCommand(contextOf),
    mappingGapsCommand(contextOf),
    mappingCommand(contextOf),
    shopsCommand(contextOf),
    previewCommand(contextOf),
    writeBackCommand(contextOf),
    syncCommand(contextOf),
    resyncCommand(contextOf),
    reconcileCommand(contextOf),
    linkCommand(contextOf),
    driftCommand(contextOf),
    alertsCommand(contextOf),
  ]) {
    program.addCommand(
      command.exitOverride().configureOutput(program.configureOutput()).showHelpAfterError(HELP_HINT),
    );
  }
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return ExitCode.OK;
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help exits 0; no command at all shows the help with exit code 1: a usage error.
      return error.exitCode === 0 ? ExitCode.OK : ExitCode.USAGE;
    }
    if (error instanceof CliError) {
      out.warn(`connector: ${error.message}`);
      return error.exitCode;
    }
    out.warn(`connector: ${error instanceof Error ? error.message : String(error)}`);
    return ExitCode.FAILURE;
  }
}
