import type { LoggerService, LogLevel } from '@nestjs/common';
import pino, { type DestinationStream, type Logger } from 'pino';
import { logContext } from './log-context.js';

/** Nest's levels mapped onto pino's. */
const LEVELS: Record<LogLevel, pino.Level> = {
  fatal: 'fatal',
  error: 'error',
  warn: 'warn',
  log: 'info',
  debug: 'debug',
  verbose: 'trace',
};

/**
 * Nest's own start-up chatter (a line per module and per route): written at `debug`, so an
 * `info` log stays short and the route table is one level away.
 */
const FRAMEWORK_CONTEXTS = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestFactory']);

export interface JsonLoggerOptions {
  /** pino level (`info` by default); `silent` writes nothing. */
  level: string;
  /** Where lines go; stdout by default. */
  destination?: DestinationStream;
  /**
   * Values that must never be written (API keys, tokens, webhook secrets): replaced by
   * `[redacted]` wherever they appear in a message, a stack or a context. Belt and braces: the
   * code never logs them on purpose.
   */
  secrets: readonly string[];
}

/**
 * The connector's logs: one JSON object per line (pino), with `time`, `level`, `context` (the
 * Nest logger's name), `msg`, the current correlation (`correlationId` and its facts:
 * `webhookId`, `shop`, `jobId`, ...) and `err` for stacks. Every line is scrubbed of the
 * configured secrets before it is written.
 */
export class JsonLogger implements LoggerService {
  readonly pino: Logger;
  private readonly secrets: string[];

  constructor(options: JsonLoggerOptions) {
    this.secrets = [...new Set(options.secrets.filter((secret) => secret.length >= 4))].sort(
      (a, b) => b.length - a.length,
    );
    this.pino = pino(
      {
        level: options.level,
        base: { service: 'connector' },
        timestamp: pino.stdTimeFunctions.isoTime,
        formatters: { level: (label) => ({ level: label }) },
        mixin: () => ({ ...logContext.current() }),
        hooks: { streamWrite: (line) => this.scrub(line) },
      },
      options.destination ?? pino.destination({ dest: 1, sync: false }),
    );
  }

  log(message: unknown, ...rest: unknown[]): void {
    this.write('log', message, rest);
  }
  error(message: unknown, ...rest: unknown[]): void {
    this.write('error', message, rest);
  }
  warn(message: unknown, ...rest: unknown[]): void {
    this.write('warn', message, rest);
  }
  debug(message: unknown, ...rest: unknown[]): void {
    this.write('debug', message, rest);
  }
  verbose(message: unknown, ...rest: unknown[]): void {
    this.write('verbose', message, rest);
  }
  fatal(message: unknown, ...rest: unknown[]): void {
    this.write('fatal', message, rest);
  }

  /** Nest calls `(message, context)` or, for errors, `(message, stack, context)`. */
  private write(given: LogLevel, message: unknown, rest: unknown[]): void {
    const context = typeof rest.at(-1) === 'string' ? (rest.at(-1) as string) : undefined;
    const level = given === 'log' && context && FRAMEWORK_CONTEXTS.has(context) ? 'debug' : given;
    const stack =
      level === 'error' || level === 'fatal'
        ? rest.slice(0, -1).find((x) => typeof x === 'string')
        : undefined;
    const fields: Record<string, unknown> = context === undefined ? {} : { context };
    if (typeof stack === 'string') fields.err = { stack };
    if (message instanceof Error) {
      this.pino[LEVELS[level]]({ ...fields, err: message }, message.message);
    } else if (typeof message === 'object' && message !== null) {
      this.pino[LEVELS[level]]({ ...fields, ...(message as Record<string, unknown>) });
    } else {
      this.pino[LEVELS[level]](fields, String(message));
    }
  }

  /** Replaces every configured secret in a serialised line (JSON-escaped forms included). */
  private scrub(line: string): string {
    let out = line;
    for (const secret of this.secrets) {
      for (const form of [secret, JSON.stringify(secret).slice(1, -1)]) {
        if (out.includes(form)) out = out.split(form).join('[redacted]');
      }
    }
    return out;
  }
}
