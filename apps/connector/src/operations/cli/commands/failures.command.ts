import { Command, InvalidArgumentError } from 'commander';
import type { FailureDto, FailurePageDto } from '../../admin/failure.dto.js';
import type { ContextOf } from '../context/cli-context.js';

/** A positive integer option (`--limit 20`); anything else is a usage error. */
export function integerOption(value: string): number {
  if (!/^\d{1,9}$/.test(value)) throw new InvalidArgumentError('must be a whole number');
  return Number(value);
}

/**
 * `failures`: the failures inbox (`GET /admin/failures`), latest first, one line each, with the
 * API's filters (`--shop`, `--job-kind`, `--state`, `--subject`) and paging; `--json` prints the
 * page as the API answered it.
 */
export function failuresCommand(contextOf: ContextOf): Command {
  return new Command('failures')
    .description('list the failures inbox (latest first)')
    .option('--shop <domain>', 'only this shop')
    .option('--job-kind <kind>', 'only this job kind (sync-product, ...)')
    .option('--state <state>', 'open, replayed, dismissed or resolved')
    .option('--subject <key>', 'only this subject (a product sync: the Shopify product id)')
    .option('--limit <n>', 'how many (1-500)', integerOption, 50)
    .option('--offset <n>', 'skip this many', integerOption, 0)
    .option('--json', 'print the API answer as JSON')
    .action(
      async (
        options: {
          shop?: string;
          jobKind?: string;
          state?: string;
          subject?: string;
          limit: number;
          offset: number;
          json?: boolean;
        },
        command: Command,
      ) => {
        const { admin, out } = contextOf(command);
        const page = await admin.get<FailurePageDto>('/admin/failures', {
          shop: options.shop,
          jobKind: options.jobKind,
          state: options.state,
          subject: options.subject,
          limit: options.limit,
          offset: options.offset,
        });
        if (options.json) return out.line(JSON.stringify(page, null, 2));
        if (page.items.length === 0) return out.line(`No failures (${page.total} match).`);
        for (const failure of page.items) out.line(failureLine(failure));
        const last = page.offset + page.items.length;
        out.line(
          `${page.offset + 1}-${last} of ${page.total}${last < page.total ? ` (more: --offset ${last})` : ''}`,
        );
      },
    );
}

/** One failure on one line: id, state, where, what, why. */
export function failureLine(failure: FailureDto): string {
  const message = failure.error.message.replace(/\s+/g, ' ');
  return [
    `#${failure.id}`,
    failure.state,
    failure.shop,
    `${failure.jobKind} ${failure.subjectKey}`,
    `${failure.error.code}${failure.error.retryable ? '' : ' (permanent)'}`,
    `attempts ${failure.attempts}`,
    `last ${failure.lastFailedAt}`,
    message.length > 120 ? `${message.slice(0, 117)}...` : message,
  ].join('  ');
}
