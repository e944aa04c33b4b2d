import { describe, expect, it } from 'vitest';
import type { Taxonomy } from '../taxonomy/taxonomy.js';
import type { AttributeDef } from './attribute-definition.js';
import { validateAttributeValue } from './attribute-value.validator.js';

const TEXT = { key: 'name', type: 'TEXT', maxLength: null } as AttributeDef;
const NO_TAXONOMY = {} as Taxonomy;

describe('attribute value lengths', () => {
  it('counts characters (code points), not UTF-16 units: 200 emoji are 200 characters', () => {
    expect(validateAttributeValue(TEXT, '👕'.repeat(200), NO_TAXONOMY)).toBe('👕'.repeat(200));
    expect(() => validateAttributeValue(TEXT, '👕'.repeat(256), NO_TAXONOMY)).toThrow(
      'is longer than 255 characters (256)',
    );
  });
});
