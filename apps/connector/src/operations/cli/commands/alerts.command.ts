import { readFile } from 'node:fs/promises';
import { Command } from 'commander';
import type {
  AlertDeliveryListDto,
  AlertTargetDto,
  AlertTargetListDto,
  CreatedAlertTargetDto,
} from '../../alerts/alert-target.dto.js';
import type { ContextOf } from '../context/cli-context.js';
import { CliError, ExitCode } from '../context/cli-error.js';
import { integerOption } from './failures.command.js';

/**
 * Why: the alerts' targets from a terminal, through the admin API like every command:
 * `alerts add <kind> <url>` registers a signed webhook or a Slack incoming webhook, for one shop
 * (`--shop`) or every shop, and prints a generated signing secret this once (`--secret-file`
 * gives one instead, never on the command line); `alerts list` prints the targets (never a whole
 * URL or a secret) and, with `--deliveries`, the latest notifications; `alerts remove <id>`.
 */
export function alertsCommand(contextOf: ContextOf): Command {
  const alerts = new Command('alerts').description(
    "alerts: who is told when a shop's state changes (signed webhooks, Slack), and what was sent",
  );
  alerts
    .command('add')
    .description('register a target told about shop state changes')
    .argument('<kind>', 'webhook (a signed JSON body) or slack (an incoming webhook)')
    .argument('<url>', 'where to POST (HTTPS; plain HTTP only to this machine)')
    .option('--shop <domain>', 'only this shop (default: every shop)')
    .option('--label <name>', 'a name for the lists')
    .option('--secret-file <path>', "a webhook's signing secret, read from this file (default: generated)")
    .option('--json', 'print the API answer as JSON')
    .action(
      async (
        kind: string,
        url: string,
        options: { shop?: string; label?: string; secretFile?: string; json?: boolean },
        command: Command,
      ) => {
        if (kind !== 'webhook' && kind !== 'slack')
          throw new CliError(`the kind is webhook or slack, not "${kind}"`, ExitCode.USAGE);
        const { admin, out } = contextOf(command);
        const secret =
          options.secretFile === undefined ? undefined : (await readFile(options.secretFile, 'utf8')).trim();
        const added = await admin.postJson<CreatedAlertTargetDto>('/admin/alert-targets', {
          kind,
          url,
          ...(options.shop === undefined ? {} : { shop: options.shop }),
          ...(options.label === undefined ? {} : { label: options.label }),
          ...(secret === undefined ? {} : { secret }),
        });
        if (options.json) return out.line(JSON.stringify(added, null, 2));
        out.line(`Added alert target ${targetLine(added)}`);
        if (added.secret !== undefined) {
          out.line(
            `Its signing secret (shown this once; the receiver checks X-Connector-Signature with it):`,
          );
          out.line(added.secret);
        }
      },
    );
  alerts
    .command('list')
    .description('print the alert targets (and the latest notifications with --deliveries)')
    .option('--deliveries', 'the latest notifications too')
    .option('--shop <domain>', 'notifications of this shop only')
    .option('--limit <n>', 'how many notifications (1-500)', integerOption, 20)
    .option('--json', 'print the API answers as JSON')
    .action(
      async (
        options: { deliveries?: boolean; shop?: string; limit: number; json?: boolean },
        command: Command,
      ) => {
        const { admin, out } = contextOf(command);
        const { targets } = await admin.get<AlertTargetListDto>('/admin/alert-targets');
        const sent =
          options.deliveries === true
            ? (
                await admin.get<AlertDeliveryListDto>('/admin/alert-deliveries', {
                  shop: options.shop,
                  limit: options.limit,
                })
              ).deliveries
            : undefined;
        if (options.json) return out.line(JSON.stringify({ targets, deliveries: sent }, null, 2));
        if (targets.length === 0) out.line('No alert target: nobody is told when a shop changes state.');
        for (const target of targets) out.line(targetLine(target));
        if (sent === undefined) return;
        out.line(sent.length === 0 ? 'No notification sent yet.' : 'Latest notifications:');
        for (const d of sent) {
          const answer = d.lastError ?? (d.lastStatus === null ? '' : `answered ${d.lastStatus}`);
          out.line(
            `  ${d.createdAt}  ${d.shop}  ${d.from} -> ${d.to}  to ${d.target}: ${d.state} after ${d.attempts} attempt(s)${answer ? ` (${answer})` : ''}  cause: ${d.cause}`,
          );
        }
      },
    );
  alerts
    .command('remove')
    .description('remove an alert target (its notifications stay listed)')
    .argument('<id>', 'the target (ids from alerts list)')
    .action(async (id: string, _options: unknown, command: Command) => {
      const { admin, out } = contextOf(command);
      await admin.delete(`/admin/alert-targets/${encodeURIComponent(id)}`);
      out.line(`Removed alert target ${id}.`);
    });
  return alerts;
}

/** One target on one line: id, name, kind, whom it is told about, where, and any problem. */
function targetLine(t: AlertTargetDto): string {
  const kind = t.kind === 'slack' ? 'Slack' : t.signed ? 'webhook, signed' : 'webhook';
  return `#${t.id}  ${t.label}  (${kind})  ${t.shop ?? 'every shop'}  ${t.url}${t.problem ? `  PROBLEM: ${t.problem}` : ''}`;
}
