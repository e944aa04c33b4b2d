import { describe, expect, it } from 'vitest';
import { JsonLogger } from './json-logger.js';
import { logContext } from './log-context.js';

const capture = (secrets: string[] = [], level = 'trace') => {
  const lines: string[] = [];
  const logger = new JsonLogger({
    level,
    secrets,
    destination: { write: (line: string) => void lines.push(line) },
  });
  return {
    logger,
    lines: () =>
      lines
        .join('')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>),
  };
};

describe('JsonLogger', () => {
  it('writes one JSON object per line with level, time, context and the current correlation', () => {
    const { logger, lines } = capture();
    logContext.run({ correlationId: 'req-1', webhookId: 'wh-1' }, () => logger.log('stored', 'Inbox'));
    logger.warn('outside');
    logger.error('broke', 'Error: broke\n    at x', 'Job');
    const [first, second, third] = lines();
    expect(first).toMatchObject({
      level: 'info',
      msg: 'stored',
      context: 'Inbox',
      correlationId: 'req-1',
      webhookId: 'wh-1',
    });
    expect(typeof first?.time).toBe('string');
    expect(second).toMatchObject({ level: 'warn', msg: 'outside' });
    expect(second).not.toHaveProperty('correlationId');
    expect(third).toMatchObject({
      level: 'error',
      msg: 'broke',
      context: 'Job',
      err: { stack: 'Error: broke\n    at x' },
    });
  });

  it('scrubs every configured secret, in messages, objects and stacks, JSON-escaped forms included', () => {
    const secret = 'shpat_0123456789abcdef';
    const quoted = 'se"cret\\value';
    const { logger, lines } = capture([secret, quoted, 'ab']);
    logger.log(`token ${secret} leaked`);
    logger.log({ msg: 'object', header: `Bearer ${secret}`, other: quoted });
    logger.error(new Error(`failed with ${secret}`));
    const text = JSON.stringify(lines());
    expect(text).not.toContain(secret);
    expect(text).not.toContain('cret\\\\value');
    expect(lines()[0]?.msg).toBe('token [redacted] leaked');
    expect(lines()[1]).toMatchObject({ header: 'Bearer [redacted]', other: '[redacted]' });
  });

  it('honours the level', () => {
    const { logger, lines } = capture([], 'warn');
    logger.log('info is below warn');
    logger.debug('so is debug');
    logger.warn('kept');
    expect(lines().map((line) => line.msg)).toEqual(['kept']);
  });

  it("writes Nest's start-up chatter (modules, routes) at debug, so info stays short", () => {
    const { logger, lines } = capture([], 'info');
    logger.log('Mapped {/health, GET} route', 'RouterExplorer');
    logger.log('AppModule dependencies initialized', 'InstanceLoader');
    logger.log('Connector listening', 'Connector');
    expect(lines().map((line) => line.msg)).toEqual(['Connector listening']);
  });
});
