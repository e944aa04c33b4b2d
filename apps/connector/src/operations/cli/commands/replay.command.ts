import { Command } from 'commander';
import type { BulkReplayDto, FailureDto } from '../../admin/failure.dto.js';
import type { ContextOf } from '../context/cli-context.js';
import { CliError, ExitCode } from '../context/cli-error.js';
import { integerOption } from './failures.command.js';

/**
 * `replay <failureId>` runs one open failure's job again (`POST /admin/failures/{id}/replay`);
 * `replay --all` every open failure matching the filters, up to `--limit`
 * (`POST /admin/failures/replay`). A failure not open, or a replay that could not be enqueued,
 * exits 1 with the API's message.
 */
export function replayCommand(contextOf: ContextOf): Command {
  return new Command('replay')
    .description(
      'run a failure again (replay <failureId>), or every open one matching the filters (replay --all)',
    )
    .argument('[failureId]', 'the failure to replay')
    .option('--all', 'replay every open failure matching the filters')
    .option('--shop <domain>', 'with --all: only this shop')
    .option('--job-kind <kind>', 'with --all: only this job kind')
    .option('--subject <key>', 'with --all: only this subject')
    .option('--limit <n>', 'with --all: at most this many (1-500)', integerOption, 50)
    .action(
      async (
        failureId: string | undefined,
        options: { all?: boolean; shop?: string; jobKind?: string; subject?: string; limit: number },
        command: Command,
      ) => {
        if ((failureId === undefined) === (options.all !== true)) {
          throw new CliError('give a failure id, or --all (not both)', ExitCode.USAGE);
        }
        const { admin, out } = contextOf(command);
        if (failureId !== undefined) {
          const failure = await admin.post<FailureDto>(
            `/admin/failures/${encodeURIComponent(failureId)}/replay`,
          );
          out.line(
            `Failure #${failure.id} replayed: ${failure.jobKind} ${failure.subjectKey} (${failure.shop}) runs again; it is now ${failure.state}.`,
          );
          return;
        }
        const answer = await admin.post<BulkReplayDto>('/admin/failures/replay', {
          shop: options.shop,
          jobKind: options.jobKind,
          subject: options.subject,
          limit: options.limit,
        });
        const ids = answer.replayed.map((id) => `#${id}`).join(', ');
        out.line(
          `Replayed ${answer.replayed.length} failure${answer.replayed.length === 1 ? '' : 's'}${ids ? `: ${ids}` : ''}.`,
        );
        for (const error of answer.errors) out.line(`  not replayed #${error.id}: ${error.message}`);
        if (answer.remaining > 0)
          out.line(`${answer.remaining} open failures still match (replay --all again).`);
        if (answer.errors.length > 0) {
          throw new CliError(
            `replay: ${answer.errors.length} failure${answer.errors.length === 1 ? '' : 's'} could not be replayed`,
          );
        }
      },
    );
}
