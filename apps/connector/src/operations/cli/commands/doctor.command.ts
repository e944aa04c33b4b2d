import { Command } from 'commander';
import type { DoctorCheckDto, DoctorReportDto } from '../../admin/doctor.dto.js';
import type { CliOutput, ContextOf } from '../context/cli-context.js';
import { CliError } from '../context/cli-error.js';

const MARKS: Readonly<Record<DoctorCheckDto['status'], string>> = {
  pass: '✓',
  fail: '✗',
  warn: '!',
  unknown: '?',
};

/**
 * `doctor`: the deployment checked before the first webhook (`GET /admin/doctor`): one line per
 * check (✓ pass, ✗ fail, ! warn, ? cannot be told), each check that does not pass followed by
 * its fix and the command that does it; any failure exits 1. `--json` prints the API's answer.
 */
export function doctorCommand(contextOf: ContextOf): Command {
  return new Command('doctor')
    .description(
      'check the deployment: public URL over HTTPS, and per shop its token, scopes, webhooks, catalog key, mapping gaps, clock',
    )
    .option('--shop <domain>', 'only this shop (default: every shop the connector serves)')
    .option('--json', 'print the API answer as JSON')
    .action(async (options: { shop?: string; json?: boolean }, command: Command) => {
      const { admin, out } = contextOf(command);
      const report = await admin.get<DoctorReportDto>('/admin/doctor', { shop: options.shop });
      if (options.json) out.line(JSON.stringify(report, null, 2));
      else print(report, out);
      if (report.failed > 0)
        throw new CliError(`doctor: ${report.failed} check${report.failed === 1 ? '' : 's'} failed`);
    });
}

function print(report: DoctorReportDto, out: CliOutput): void {
  let heading: string | null | undefined;
  for (const check of report.checks) {
    if (check.shop !== heading) {
      heading = check.shop;
      out.line(heading ?? 'deployment');
    }
    out.line(`  ${MARKS[check.status]} ${check.check}: ${check.detail}`);
    if (check.status === 'pass') continue;
    if (check.fix !== null) out.line(`      fix: ${check.fix}`);
    if (check.command !== null) out.line(`      run: ${check.command}`);
  }
  const count = (status: DoctorCheckDto['status']) => report.checks.filter((c) => c.status === status).length;
  out.line(
    `doctor: ${count('pass')} passed, ${count('fail')} failed, ${count('warn')} warned, ${count('unknown')} could not be told`,
  );
}
