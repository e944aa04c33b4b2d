import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { YamlLines, yamlScalar } from './yaml-lines.js';

describe('YamlLines', () => {
  it('quotes every key and value YAML would read as something else', () => {
    const names = [
      'Shirts',
      'T-Shirts',
      "Men's Shirts",
      'Hats & Caps',
      'Sale: 50%',
      '#1 seller',
      '- dash',
      '36',
      '3XL',
      'yes',
      'No',
      'null',
      'true',
      '~',
      ' padded ',
      'Déco',
      '[x]',
      '{y}',
      'a, b',
      '*star',
      '&anchor',
      '!tag',
      '@at',
      '`tick',
      'line\nbreak',
      'tab\there',
    ];
    const lines = new YamlLines().pair(0, 'values');
    for (const name of names) lines.pair(2, name, name, 'a note: with # and "quotes"');
    expect(parse(lines.toString())).toEqual({ values: Object.fromEntries(names.map((n) => [n, n])) });
    expect(yamlScalar('T-Shirts')).toBe('T-Shirts');
    expect(yamlScalar('36')).toBe('"36"');
  });

  it('wraps comments at 100 columns and keeps them one per line', () => {
    const text = new YamlLines().comment(4, `TODO ${'word '.repeat(40)}\nend`).toString();
    const lines = text.trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) {
      expect(line.startsWith('    # ')).toBe(true);
      expect(line.length).toBeLessThanOrEqual(100);
    }
    expect(parse(`${text}a: 1\n`)).toEqual({ a: 1 });
  });
});
