import { Command } from 'commander';
import type { ContextOf } from '../context/cli-context.js';
import { integerOption } from './failures.command.js';
import { type ResyncRun, watchToTheEnd } from './resync.command.js';

/**
 * Why: `reconcile [--shop <domain>] [--dry-run]`, the CLI's `POST /admin/reconcile`: the shop's
 * reconciliation now (missed changes and deletions since its checkpoint), shown as `resync`
 * shows a run; with `--dry-run` (issue 31) what it finds is planned, nothing is sent, the
 * checkpoint stays, and the plan is printed.
 */
export function reconcileCommand(contextOf: ContextOf): Command {
  return new Command('reconcile')
    .description("the shop's reconciliation now; --dry-run prints what it would send instead")
    .option('--shop <domain>', 'the shop (when several are configured)')
    .option('--dry-run', 'plan what it finds, send nothing, print the plan')
    .option('--interval <ms>', 'how often the progress is read', integerOption, 1000)
    .action(async (options: { shop?: string; dryRun?: boolean; interval: number }, command: Command) => {
      const context = contextOf(command);
      const run = await context.admin.post<ResyncRun>('/admin/reconcile', {
        shop: context.shop(options.shop).domain,
        dryRun: options.dryRun ? 'true' : undefined,
      });
      context.out.line(`Reconciliation ${run.dryRun ? 'dry run' : 'run'} ${run.id} started: ${run.shop}`);
      await watchToTheEnd(context.admin, run, context.out, options.interval);
    });
}
