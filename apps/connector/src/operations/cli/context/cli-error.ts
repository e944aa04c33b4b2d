/** The command line's exit codes (docs/cli.md, "Command line"). */
export const ExitCode = {
  OK: 0,
  /** The command ran and found a failure or problems, or the connector refused it. */
  FAILURE: 1,
  /** The command was given wrong arguments or options (or the admin API said so: 400). */
  USAGE: 2,
  /** Ctrl-C while watching (the work on the connector goes on). */
  INTERRUPTED: 130,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/**
 * An error the command line reports as one line (never a stack) before exiting with `exitCode`:
 * a refused admin call, a connector that cannot be reached, a usage mistake.
 */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode = ExitCode.FAILURE,
  ) {
    super(message);
    this.name = 'CliError';
  }
}
