import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './env-reader.js';

describe('loadConfig', () => {
  it('builds a typed object with defaults when the environment is empty', () => {
    const config = loadConfig({}, (r) => ({
      http: { port: r.port('PORT', 4010) },
      flags: { strict: r.bool('STRICT', false) },
      name: r.string('NAME', 'sandbox'),
    }));
    expect(config).toEqual({ http: { port: 4010 }, flags: { strict: false }, name: 'sandbox' });
  });

  it('reads and converts given values', () => {
    const config = loadConfig({ PORT: '8080', STRICT: 'yes', RATE: '2.5', MODE: 'b' }, (r) => ({
      port: r.port('PORT', 1),
      strict: r.bool('STRICT', false),
      rate: r.number('RATE', 4),
      mode: r.oneOf('MODE', ['a', 'b'] as const, 'a'),
    }));
    expect(config).toEqual({ port: 8080, strict: true, rate: 2.5, mode: 'b' });
  });

  it('fails naming every bad variable at once', () => {
    const attempt = () =>
      loadConfig({ PORT: 'eighty', STRICT: 'maybe', MODE: 'z', URL: 'not a url' }, (r) => ({
        port: r.port('PORT', 1),
        strict: r.bool('STRICT', false),
        mode: r.oneOf('MODE', ['a', 'b'] as const, 'a'),
        url: r.url('URL'),
        token: r.string('TOKEN'),
      }));
    expect(attempt).toThrow(ConfigError);
    try {
      attempt();
    } catch (error) {
      const problems = (error as ConfigError).problems.join('\n');
      for (const name of ['PORT', 'STRICT', 'MODE', 'URL', 'TOKEN']) expect(problems).toContain(name);
    }
  });

  it('refuses a port out of range', () => {
    expect(() => loadConfig({ PORT: '70000' }, (r) => r.port('PORT', 1))).toThrow(
      'PORT must be between 0 and 65535, got 70000',
    );
  });

  it('names only the bounds that exist, in plain words (never "inf")', () => {
    const attempt = () =>
      loadConfig({ BURST: '0', RATE: '12.5', SHARE: '-1' }, (r) => ({
        burst: r.int('BURST', 8, { min: 1 }),
        rate: r.number('RATE', 4, { max: 10 }),
        share: r.number('SHARE', 0.5, { min: 0, max: 1 }),
      }));
    expect(attempt).toThrow(ConfigError);
    try {
      attempt();
    } catch (error) {
      expect((error as ConfigError).problems).toEqual([
        'BURST must be at least 1, got 0',
        'RATE must be at most 10, got 12.5',
        'SHARE must be between 0 and 1, got -1',
      ]);
    }
  });
});
