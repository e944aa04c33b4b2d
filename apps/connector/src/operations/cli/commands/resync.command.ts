import cliProgress from 'cli-progress';
import { Command } from 'commander';
import type { ResyncRunPlanDto } from '../../../resync/resync-run.dto.js';
import type { AdminApi } from '../context/admin-api.js';
import type { CliOutput, ContextOf } from '../context/cli-context.js';
import { CliError, ExitCode } from '../context/cli-error.js';
import { integerOption } from './failures.command.js';
import { changedFields } from './sync.command.js';

/** A resync run as `POST /admin/resync` and `GET /admin/resync/{id}` answer it (the parts used here). */
export interface ResyncRun {
  id: string;
  shop: string;
  scope: 'product' | 'shop' | 'reconcile';
  productId: string | null;
  dryRun: boolean;
  state: 'running' | 'done' | 'cancelled' | 'failed';
  walkDone: boolean;
  listed: number;
  done: number;
  failed: number;
  remaining: number;
  etaSeconds: number | null;
  error: string | null;
  plan: ResyncRunPlanDto | null;
}

/**
 * `resync [--product <id>] [--shop <domain>] [--dry-run]`: starts a resync run through the admin
 * API, then shows its progress (a cli-progress bar: products done of those listed, failed, and
 * the run's ETA at the catalog budget) until it ends. Ctrl-C stops watching only: the run goes
 * on, and `resync --watch <runId>` shows it again. Exits 1 when the run failed, was cancelled, or
 * some products failed (they are in the failures inbox). A dry run (issue 31) then prints its
 * plan: the counts, and each product's calls with the records' changed fields; nothing is sent.
 */
export function resyncCommand(contextOf: ContextOf): Command {
  return new Command('resync')
    .description(
      'resync a shop (or one product) and show its progress until it ends; Ctrl-C leaves it running',
    )
    .option('--shop <domain>', 'the shop (when several are configured)')
    .option('--product <id>', 'only this Shopify product (its id)')
    .option('--dry-run', 'plan every product as its sync would, send nothing, print the plan')
    .option('--watch <runId>', 'show the progress of a run already started')
    .option('--interval <ms>', 'how often the progress is read', integerOption, 1000)
    .action(
      async (
        options: { shop?: string; product?: string; watch?: string; interval: number; dryRun?: boolean },
        command: Command,
      ) => {
        if (options.watch !== undefined && (options.product !== undefined || options.shop !== undefined)) {
          throw new CliError('--watch takes no --shop nor --product', ExitCode.USAGE);
        }
        const product = options.product?.replace(/^gid:\/\/shopify\/Product\//, '');
        if (product !== undefined && !/^[1-9]\d{0,19}$/.test(product)) {
          throw new CliError(
            `--product must be a Shopify product id, got ${options.product}`,
            ExitCode.USAGE,
          );
        }
        const context = contextOf(command);
        const run =
          options.watch !== undefined
            ? await context.admin.get<ResyncRun>(`/admin/resync/${encodeURIComponent(options.watch)}`)
            : await context.admin.post<ResyncRun>('/admin/resync', {
                shop: context.shop(options.shop).domain,
                product,
                dryRun: options.dryRun ? 'true' : undefined,
              });
        if (options.watch === undefined) {
          context.out.line(
            `Resync ${run.dryRun ? 'dry run' : 'run'} ${run.id} started: ${run.scope === 'product' ? `product ${run.productId} of ` : ''}${run.shop}`,
          );
        }
        await watchToTheEnd(context.admin, run, context.out, options.interval);
      },
    );
}

/** Shows the run until it ends, then its outcome (a dry run: its plan). Also `reconcile`'s. */
export async function watchToTheEnd(
  admin: AdminApi,
  run: ResyncRun,
  out: CliOutput,
  intervalMs: number,
): Promise<void> {
  const last = await watch(admin, run, out, Math.max(100, intervalMs));
  if (last.dryRun && last.state === 'done') {
    await printPlan(admin, last, out);
    return;
  }
  report(last, out);
}

/** A dry run's plan: the counts, then every product with calls (paged through `planAfter`). */
async function printPlan(admin: AdminApi, run: ResyncRun, out: CliOutput): Promise<void> {
  const counts = run.plan?.counts;
  if (!counts) return;
  out.line(
    `Dry run ${run.id} done: ${counts.products} product(s) planned, ${counts.changed} with calls: ${counts.creates} creates, ${counts.uploads} uploads, ${counts.patches} patches, ${counts.deletes} deletes would be sent; nothing sent.`,
  );
  let plan: ResyncRunPlanDto | null = run.plan;
  while (plan) {
    for (const product of plan.products) {
      out.line(`product ${product.productId}${product.found ? '' : ' (gone from Shopify)'}:`);
      for (const call of product.calls) {
        out.line(`  ${call.method} ${call.path}${call.supplierSku ? ` (${call.supplierSku})` : ''}`);
        for (const field of changedFields(call.before, call.after)) out.line(`    ${field}`);
      }
    }
    if (plan.nextPlanAfter === null) return;
    plan = (
      await admin.get<ResyncRun>(`/admin/resync/${encodeURIComponent(run.id)}`, {
        planAfter: plan.nextPlanAfter,
      })
    ).plan;
  }
}

/** Polls the run and draws its progress until it ends, or until Ctrl-C (exit 130, the run goes on). */
async function watch(
  admin: AdminApi,
  first: ResyncRun,
  out: CliOutput,
  intervalMs: number,
): Promise<ResyncRun> {
  const bar = new cliProgress.SingleBar(
    {
      format: 'resync |{bar}| {value}/{total} products | failed {failed} | ETA {eta_text}',
      stream: out.progress,
      noTTYOutput: true,
      notTTYSchedule: Math.max(intervalMs, 1000),
      hideCursor: true,
    },
    cliProgress.Presets.shades_classic,
  );
  const interrupted = new AbortController();
  const onInterrupt = () => interrupted.abort();
  process.once('SIGINT', onInterrupt);
  let run = first;
  // The bar appears once there is something to count: a run with no product listed (yet) would
  // draw a full bar at 0/0, which reads as done.
  let drawn = false;
  const draw = () => {
    const total = totalOf(run);
    if (total === 0) return;
    if (!drawn) bar.start(total, run.done + run.failed, payloadOf(run));
    else {
      bar.setTotal(total);
      bar.update(run.done + run.failed, payloadOf(run));
    }
    drawn = true;
  };
  draw();
  try {
    while (run.state === 'running') {
      await sleep(intervalMs, interrupted.signal);
      if (interrupted.signal.aborted) break;
      run = await admin.get<ResyncRun>(`/admin/resync/${encodeURIComponent(run.id)}`);
      draw();
    }
  } finally {
    process.removeListener('SIGINT', onInterrupt);
    if (drawn) bar.stop();
  }
  if (interrupted.signal.aborted) {
    throw new CliError(
      `stopped watching; resync run ${run.id} goes on (watch it again: npm run connector -- resync --watch ${run.id})`,
      ExitCode.INTERRUPTED,
    );
  }
  return run;
}

function report(run: ResyncRun, out: CliOutput): void {
  const counts = `${run.done} product${run.done === 1 ? '' : 's'} ${run.dryRun ? 'planned' : 'synced'}, ${run.failed} failed`;
  if (run.state === 'done' && run.failed === 0) {
    out.line(`Resync run ${run.id} done: ${counts}.`);
    return;
  }
  if (run.state === 'done') {
    throw new CliError(
      `resync run ${run.id} done with failures: ${counts} (npm run connector -- failures --shop ${run.shop} --state open)`,
    );
  }
  throw new CliError(`resync run ${run.id} ${run.state}: ${counts}${run.error ? `: ${run.error}` : ''}`);
}

function totalOf(run: ResyncRun): number {
  return Math.max(run.listed, run.done + run.failed, run.scope === 'product' ? 1 : 0);
}

function payloadOf(run: ResyncRun): { failed: number; eta_text: string } {
  const eta = run.etaSeconds === null ? '-' : duration(run.etaSeconds);
  return { failed: run.failed, eta_text: run.walkDone || eta === '-' ? eta : `>= ${eta} (still listing)` };
}

function duration(seconds: number): string {
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ${seconds % 60}s`;
  return `${Math.floor(minutes / 60)}h ${minutes % 60}m`;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
