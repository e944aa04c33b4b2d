import { describe, expect, it } from 'vitest';
import { readPrice } from './price.js';

describe('readPrice', () => {
  it('normalises numbers and strings to two decimals', () => {
    expect(readPrice(19.9)).toEqual({ price: '19.90' });
    expect(readPrice('20')).toEqual({ price: '20.00' });
    expect(readPrice(' 35.5 ')).toEqual({ price: '35.50' });
    expect(readPrice('.5')).toEqual({ price: '0.50' });
    expect(readPrice(0)).toEqual({ price: '0.00' });
    expect(readPrice('-0')).toEqual({ price: '0.00' });
  });

  it('rounds extra decimals half up on the decimal text, not on a float', () => {
    expect(readPrice('0.125')).toEqual({ price: '0.13' });
    expect(readPrice(1.005)).toEqual({ price: '1.01' });
    expect(readPrice('2.994')).toEqual({ price: '2.99' });
    expect(readPrice('2.5e-3')).toEqual({ price: '0.00' });
  });

  it('keeps large amounts exact up to the limit', () => {
    expect(readPrice('999999999999999999.99')).toEqual({ price: '999999999999999999.99' });
    expect(readPrice('1.5e3')).toEqual({ price: '1500.00' });
  });

  it('refuses 10^18 and above, as Shopify does', () => {
    const tooLarge = { problem: 'must be less than 1000000000000000000' };
    expect(readPrice(1e30)).toEqual(tooLarge);
    expect(readPrice('1e30')).toEqual(tooLarge);
    expect(readPrice('1000000000000000000')).toEqual(tooLarge);
    expect(readPrice('999999999999999999.995')).toEqual(tooLarge);
  });

  it('refuses negative, non-numeric and blank amounts, and passes absence through', () => {
    expect(readPrice(-1)).toEqual({ problem: 'must be greater than or equal to 0' });
    expect(readPrice('-0.01')).toEqual({ problem: 'must be greater than or equal to 0' });
    expect(readPrice('12,50')).toEqual({ problem: 'is not a number' });
    expect(readPrice('abc')).toEqual({ problem: 'is not a number' });
    expect(readPrice(Number.NaN)).toEqual({ problem: 'is not a number' });
    expect(readPrice(true)).toEqual({ problem: 'is not a number' });
    expect(readPrice('')).toEqual({ problem: "can't be blank" });
    expect(readPrice(undefined)).toBeUndefined();
    expect(readPrice(null)).toBeUndefined();
  });
});
