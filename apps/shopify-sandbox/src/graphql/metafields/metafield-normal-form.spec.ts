import { describe, expect, it } from 'vitest';
import { metafieldNormalForm } from './metafield-normal-form.js';
import { metafieldValueProblem } from './metafield-value.js';

const ctx = { currencyCode: 'CAD', referenceExists: () => undefined };

// Each pair: what a real 2025-01 metafieldsSet was sent and what it answered (README, facts).
describe('metafieldNormalForm: values as Shopify stores them', () => {
  it.each([
    ['boolean', 't', 'true'],
    ['boolean', '1', 'true'],
    ['boolean', ' TRUE ', 'true'],
    ['boolean', 'f', 'false'],
    ['boolean', '0', 'false'],
    ['number_integer', '5.0', '5'],
    ['number_integer', '5.000', '5'],
    ['number_decimal', '1.1234567891', '1.123456789'],
    ['number_decimal', '10.4', '10.4'],
    ['date_time', '2024-01-01T12:30:00', '2024-01-01T12:30:00+00:00'],
    ['dimension', '{"value":25,"unit":"centimeters"}', '{"value":25.0,"unit":"CENTIMETERS"}'],
    ['volume', '{"value":20,"unit":"milliliters"}', '{"value":20.0,"unit":"MILLILITERS"}'],
    ['weight', '{"value":2.5,"unit":"kilograms"}', '{"value":2.5,"unit":"KILOGRAMS"}'],
    [
      'rating',
      '{"value":"3.5","scale_min":"1.0","scale_max":"5.0"}',
      '{"scale_min":"1.0","scale_max":"5.0","value":"3.5"}',
    ],
    ['list.number_decimal', '[10.4]', '["10.4"]'],
    ['list.date_time', '["2024-01-01T12:30:00"]', '["2024-01-01T12:30:00+00:00"]'],
    ['list.weight', '[{"value":2.5,"unit":"kilograms"}]', '[{"value":2.5,"unit":"KILOGRAMS"}]'],
    ['money', '{"amount":"5.99","currency_code":"CAD"}', '{"amount":"5.99","currency_code":"CAD"}'],
    ['json', '{"ingredient":"flour","amount":0.3}', '{"ingredient":"flour","amount":0.3}'],
    ['color', '#fff123', '#fff123'],
  ])('%s %s → %s', (type, sent, stored) => {
    expect(metafieldValueProblem(type, sent, ctx)).toBeUndefined();
    expect(metafieldNormalForm(type, sent)).toBe(stored);
  });

  it('keeps what no real answer shows rewritten: a zone given, short units, trailing zeros', () => {
    expect(metafieldNormalForm('date_time', '2024-01-01T12:30:00Z')).toBe('2024-01-01T12:30:00Z');
    expect(metafieldNormalForm('weight', '{"value":2,"unit":"kg"}')).toBe('{"value":2.0,"unit":"kg"}');
    expect(metafieldNormalForm('number_decimal', '1.50')).toBe('1.50');
  });

  it('refuses what Shopify refuses: an integer with a plus sign', () => {
    expect(metafieldValueProblem('number_integer', '+5', ctx)).toMatchObject({
      code: 'INVALID_VALUE',
      message: 'Value must be an integer.',
    });
  });
});
