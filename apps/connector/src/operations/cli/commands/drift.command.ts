import { Command } from 'commander';
import { repairEffect } from '../../../drift/drift-repair-effect.js';
import type { DriftRepairOutcome } from '../../../drift/drift-repairs.service.js';
import type { DriftReportDto } from '../../../drift/drift-report.dto.js';
import type { DriftReportListDto } from '../../../drift/drift-report-list.dto.js';
import { DRIFT_KINDS } from '../../../drift/model/drift-finding.js';
import type { ContextOf } from '../context/cli-context.js';
import { CliError, ExitCode } from '../context/cli-error.js';

/**
 * Why: the drift report from a terminal, through the admin API like every command:
 * `drift list [shop]` lists the stored reports, `drift run [shop]` runs and stores a report now, `drift show <id>` prints one with its
 * findings, `drift repair <id>` repairs what the operator names (`--finding <id>...`, every
 * finding of `--kind <kind>`, or `--all` of the report's unrepaired findings): nothing else.
 * `--preview` runs nothing and prints what each repair would do (a gone record's recreation
 * loses its enrichment); `--confirm-loss <skuIds...>` names the records whose approved
 * enrichment may be deleted (a delete of one without it answers needs-confirmation, listing
 * what would be lost).
 */
export function driftCommand(contextOf: ContextOf): Command {
  const drift = new Command('drift').description(
    'the drift report: where Shopify, the sku map and the catalog disagree, and its repairs',
  );
  drift
    .command('run')
    .description('run and store a drift report of a shop now')
    .argument('[shop]', 'the shop (default: the only configured shop)')
    .option('--json', 'print the API answer as JSON')
    .action(async (shop: string | undefined, options: { json?: boolean }, command: Command) => {
      const context = contextOf(command);
      const domain = context.shop(shop).domain;
      const report = await context.admin.post<DriftReportDto>(
        `/admin/shops/${encodeURIComponent(domain)}/drift`,
      );
      printReport(context.out.line, report, options.json === true);
    });
  drift
    .command('list')
    .description('list the stored drift reports, newest first')
    .argument('[shop]', 'only this shop (default: every shop)')
    .option('--limit <n>', 'at most this many (1 to 100)', '20')
    .option('--json', 'print the API answer as JSON')
    .action(
      async (shop: string | undefined, options: { limit: string; json?: boolean }, command: Command) => {
        const { admin, out } = contextOf(command);
        const answer = await admin.get<DriftReportListDto>('/admin/drift', {
          ...(shop === undefined ? {} : { shop }),
          limit: options.limit,
        });
        if (options.json) {
          out.line(JSON.stringify(answer, null, 2));
          return;
        }
        if (answer.items.length === 0) {
          out.line(
            `No drift report${shop ? ` of ${shop}` : ''} yet (run one: npm run connector -- drift run ${shop ?? '<shop>'}).`,
          );
          return;
        }
        for (const report of answer.items) {
          const kinds = Object.entries(report.counts)
            .filter(([, n]) => n > 0)
            .map(([kind, n]) => `${n} ${kind}`);
          out.line(
            `${report.id}  ${report.createdAt}  ${report.shop}  ${report.findings} finding${report.findings === 1 ? '' : 's'}${kinds.length ? ` (${kinds.join(', ')})` : ''}, ${report.resolved} resolved`,
          );
        }
        out.line('Each with its findings: npm run connector -- drift show <id>');
      },
    );
  drift
    .command('show')
    .description('print a stored drift report with its findings')
    .argument('<id>', 'the report')
    .option('--json', 'print the API answer as JSON')
    .action(async (id: string, options: { json?: boolean }, command: Command) => {
      const { admin, out } = contextOf(command);
      printReport(
        out.line,
        await admin.get<DriftReportDto>(`/admin/drift/${encodeURIComponent(id)}`),
        options.json === true,
      );
    });
  drift
    .command('repair')
    .description('repair the chosen findings of a report: --finding <id>..., --kind <kind>, or --all')
    .argument('<id>', 'the report')
    .option('--finding <ids...>', 'these findings (ids from drift show)')
    .option('--kind <kind>', `every finding of this kind (${DRIFT_KINDS.join(', ')})`)
    .option('--all', "every one of the report's findings not repaired yet")
    .option('--preview', 'run nothing: print what each chosen repair would do')
    .option(
      '--confirm-loss <skuIds...>',
      'delete these records even though they hold approved enrichment (lost for good)',
    )
    .action(
      async (
        id: string,
        options: {
          finding?: string[];
          kind?: string;
          all?: boolean;
          preview?: boolean;
          confirmLoss?: string[];
        },
        command: Command,
      ) => {
        const chosen = [options.finding !== undefined, options.kind !== undefined, options.all === true];
        if (chosen.filter(Boolean).length !== 1) {
          throw new CliError(
            'choose the findings: --finding <id>..., --kind <kind> or --all (one of them)',
            ExitCode.USAGE,
          );
        }
        const { admin, out } = contextOf(command);
        const path = `/admin/drift/${encodeURIComponent(id)}`;
        let body: { ids: string[] } | { kind: string };
        if (options.kind !== undefined) body = { kind: options.kind };
        else if (options.finding !== undefined) body = { ids: options.finding };
        else {
          const report = await admin.get<DriftReportDto>(path);
          const ids = report.findings.filter((f) => f.repairedAt === null).map((f) => f.id);
          if (ids.length === 0) return out.line(`Drift report ${id}: nothing left to repair.`);
          body = { ids };
        }
        const answer = await admin.postJson<{ repairs: DriftRepairOutcome[] }>(`${path}/repairs`, {
          ...body,
          ...(options.preview === true ? { preview: true } : {}),
          ...(options.confirmLoss !== undefined ? { confirmLoss: options.confirmLoss } : {}),
        });
        for (const r of answer.repairs) {
          out.line(
            `#${r.findingId}  ${r.kind}  ${r.repair}  ${r.outcome}${r.reason ? `  (${r.reason})` : ''}`,
          );
          if (r.effect) out.line(`    it ${r.effect}`);
          if (r.outcome === 'needs-confirmation') {
            out.line(
              `    would lose the approved ${(r.loses ?? []).join(', ')} of ${r.skuId ?? '?'}: repeat with --confirm-loss ${r.skuId ?? '<skuId>'} to delete it anyway`,
            );
          }
        }
        out.line(`${answer.repairs.length} finding${answer.repairs.length === 1 ? '' : 's'} chosen.`);
        if (options.preview === true) return;
        const refused = answer.repairs.filter((r) =>
          ['not-supported', 'not-adoptable', 'refused', 'needs-confirmation', 'failed'].includes(r.outcome),
        );
        if (refused.length > 0)
          throw new CliError(
            `drift repair: ${refused.length} finding(s) not repaired (not supported, not adoptable, refused, awaiting --confirm-loss, or failed)`,
          );
      },
    );
  return drift;
}

/** A report: its counts and comparison, then one line per finding. */
function printReport(line: (text: string) => void, report: DriftReportDto, json: boolean): void {
  if (json) {
    line(JSON.stringify(report, null, 2));
    return;
  }
  const counts = Object.entries(report.counts)
    .filter(([, n]) => n > 0)
    .map(([kind, n]) => `${kind} ${n}`);
  line(
    `Drift report ${report.id} of ${report.shop} at ${report.createdAt}: ${report.findings.length} finding(s)` +
      `${counts.length > 0 ? ` (${counts.join(', ')})` : ''}; ${report.new} new, ${report.stillOpen} still open, ` +
      `${report.resolved.length} resolved; ${report.catalogSearches} catalog search(es).`,
  );
  for (const f of report.findings) {
    const value = f.field !== null ? ` ${f.field}${f.target !== undefined ? ` -> ${f.target}` : ''}` : '';
    const subject = `${f.productId !== null ? `product ${f.productId}` : `record ${f.skuId ?? '?'}`}${value}`;
    const done = f.repairedAt !== null ? `  repaired: ${f.repairOutcome ?? ''}` : '';
    line(`#${f.id}  ${f.kind}  ${subject}  repair: ${f.repair}  ${f.status}${done}`);
    const effect = repairEffect(f);
    if (effect !== null && f.repairedAt === null) line(`    its repair ${effect}`);
  }
}
