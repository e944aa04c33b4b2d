import { describe, expect, it } from 'vitest';
import { sameValue } from './value-hash.js';

const mf = (type: string, value: string | null) => ({ kind: 'metafield' as const, type, value });

describe('sameValue: values compared in normal form', () => {
  it('takes other forms of the same value for it', () => {
    expect(sameValue(mf('number_decimal', '1.50'), mf('number_decimal', '1.5'))).toBe(true);
    expect(sameValue(mf('number_decimal', '+007.0'), mf('number_decimal', '7'))).toBe(true);
    expect(sameValue(mf('number_integer', '07'), mf('number_integer', '7'))).toBe(true);
    expect(sameValue(mf('boolean', 'TRUE'), mf('boolean', 'true'))).toBe(true);
    expect(sameValue(mf('color', '#FFA500'), mf('color', '#ffa500'))).toBe(true);
    expect(
      sameValue(mf('date_time', '2026-03-01T09:30:00'), mf('date_time', '2026-03-01T10:30:00+01:00')),
    ).toBe(true);
    expect(
      sameValue(
        mf('money', '{"amount":"10","currency_code":"eur"}'),
        mf('money', '{"currency_code":"EUR","amount":"10.00"}'),
      ),
    ).toBe(true);
    expect(
      sameValue(mf('weight', '{"value":2,"unit":"kg"}'), mf('weight', '{"unit":"KG","value":"2.0"}')),
    ).toBe(true);
    expect(
      sameValue(mf('list.number_decimal', '["1.50","2"]'), mf('list.number_decimal', '[1.5, 2.0]')),
    ).toBe(true);
  });

  it('keeps different values different', () => {
    expect(sameValue(mf('number_decimal', '1.05'), mf('number_decimal', '1.5'))).toBe(false);
    expect(sameValue(mf('number_decimal', '-0.5'), mf('number_decimal', '0.5'))).toBe(false);
    expect(sameValue(mf('weight', '{"value":2,"unit":"kg"}'), mf('weight', '{"value":2,"unit":"g"}'))).toBe(
      false,
    );
    expect(
      sameValue(mf('date_time', '2026-03-01T09:30:00Z'), mf('date_time', '2026-03-01T09:30:00+01:00')),
    ).toBe(false);
    expect(sameValue(mf('single_line_text_field', 'Linen'), mf('single_line_text_field', 'linen'))).toBe(
      false,
    );
    expect(sameValue(mf('number_decimal', '1.5'), mf('number_decimal', null))).toBe(false);
  });
});
