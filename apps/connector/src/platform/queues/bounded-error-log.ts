import type { Clock } from '#lib/clock';

/** Where a bounded error line goes (the Nest logger of its owner: a JSON line). */
export type ErrorLine = (message: string) => void;

/** How long a source stays quiet after a line: errors in between are counted, not written. */
export const QUIET_MS = 10_000;

/**
 * Why: a client of an unreachable Redis or PostgreSQL errors as fast as its retry loop spins
 * (ioredis reconnects every few hundred milliseconds); unheard, ioredis prints each error raw
 * (`[ioredis] Unhandled error event: ...`) beside the JSON log. Every connection's `error` event
 * comes here instead: each source writes one line through the connector's logger, then at most
 * one line per 10 seconds, saying how many errors it kept quiet.
 */
export class BoundedErrorLog {
  private readonly last = new Map<string, { at: number; suppressed: number }>();
  private stopped = false;

  constructor(
    private readonly clock: Clock,
    private readonly line: ErrorLine,
  ) {}

  /** The listener of one source, for `emitter.on('error', ...)`. */
  listener(source: string): (error: unknown) => void {
    return (error) => this.report(source, error);
  }

  report(source: string, error: unknown): void {
    if (this.stopped) return;
    const now = this.clock.now();
    const seen = this.last.get(source);
    if (seen && now - seen.at < QUIET_MS) {
      seen.suppressed += 1;
      return;
    }
    const more = seen && seen.suppressed > 0 ? ` (${seen.suppressed} more since)` : '';
    this.last.set(source, { at: now, suppressed: 0 });
    this.line(`${source}: ${describe(error)}${more}`);
  }

  /** Connections dropped while shutting down are expected, not news: nothing is written after. */
  stop(): void {
    this.stopped = true;
  }
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as Error & { code?: unknown }).code;
  return typeof code === 'string' && !error.message.includes(code)
    ? `${code} ${error.message}`
    : error.message;
}
