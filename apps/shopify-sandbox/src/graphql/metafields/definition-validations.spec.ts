import { describe, expect, it } from 'vitest';
import { validationOptionProblem, validationValueProblem } from './definition-validations.js';

describe('metafield definition validations', () => {
  it('accepts the options of the type, once each, with readable values', () => {
    expect(validationOptionProblem('single_line_text_field', [{ name: 'max', value: '10' }])).toBeUndefined();
    expect(
      validationOptionProblem('list.number_integer', [{ name: 'list.max', value: '3' }]),
    ).toBeUndefined();
    expect(validationOptionProblem('number_integer', [{ name: 'regex', value: 'a' }])).toMatchObject({
      index: 0,
      code: 'INVALID_OPTION',
    });
    expect(
      validationOptionProblem('number_integer', [
        { name: 'min', value: '1' },
        { name: 'min', value: '2' },
      ]),
    ).toMatchObject({ index: 1, code: 'DUPLICATE_OPTION' });
    expect(validationOptionProblem('number_integer', [{ name: 'min', value: 'one' }])?.code).toBe(
      'INVALID_OPTION',
    );
    expect(validationOptionProblem('single_line_text_field', [{ name: 'choices', value: 'a,b' }])?.code).toBe(
      'INVALID_OPTION',
    );
  });

  it('checks text lengths, regex and choices', () => {
    const text = (value: string, validations: Array<{ name: string; value: string }>) =>
      validationValueProblem('single_line_text_field', value, validations)?.message;
    expect(text('ab', [{ name: 'min', value: '3' }])).toBe('Value has a minimum length of 3.');
    expect(text('abcd', [{ name: 'max', value: '3' }])).toBe('Value has a maximum length of 3.');
    expect(text('AB-12', [{ name: 'regex', value: '[A-Z]{2}-\\d+' }])).toBeUndefined();
    expect(text('ab-12', [{ name: 'regex', value: '[A-Z]{2}-\\d+' }])).toMatch(/regular expression/);
    expect(text('Silk', [{ name: 'choices', value: '["Linen"]' }])).toBe(
      'Value does not exist in provided choices: ["Linen"].',
    );
  });

  it('checks numbers, precision, dates, measurements across units, url domains', () => {
    expect(validationValueProblem('number_integer', '11', [{ name: 'max', value: '10' }])?.message).toBe(
      'Value has a maximum of 10.',
    );
    expect(
      validationValueProblem('number_decimal', '1.234', [{ name: 'max_precision', value: '2' }]),
    ).toBeDefined();
    expect(
      validationValueProblem('date', '2026-01-01', [{ name: 'min', value: '2026-06-01' }]),
    ).toBeDefined();
    const max = [{ name: 'max', value: '{"value": 1, "unit": "kg"}' }];
    expect(validationValueProblem('weight', '{"value": 900, "unit": "g"}', max)).toBeUndefined();
    expect(validationValueProblem('weight', '{"value": 3, "unit": "lb"}', max)).toBeDefined();
    const domains = [{ name: 'allowed_domains', value: '["example.com"]' }];
    expect(validationValueProblem('url', 'https://shop.example.com/x', domains)).toBeUndefined();
    expect(validationValueProblem('url', 'https://evil.test/', domains)).toBeDefined();
  });

  it('checks list sizes and names the offending item', () => {
    const validations = [
      { name: 'min', value: '1' },
      { name: 'list.min', value: '2' },
    ];
    expect(validationValueProblem('list.number_integer', '[3]', validations)).toEqual({
      message: 'Value must have at least 2 items.',
      elementIndex: null,
    });
    expect(validationValueProblem('list.number_integer', '[3, 0]', validations)).toEqual({
      message: 'Value has a minimum of 1.',
      elementIndex: 1,
    });
  });
});
