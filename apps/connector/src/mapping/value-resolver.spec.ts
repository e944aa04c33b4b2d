import { describe, expect, it } from 'vitest';
import type { AttributeDefinition } from '#lib/catalog-contract';
import { DEMO_ATTRIBUTES, DEMO_TAXONOMY } from '../../test/support/demo-catalog.js';
import type { ValueMap } from './model/mapping-file.js';
import { TaxonomyIndex } from './taxonomy-index.js';
import { type ResolvableEntry, resolveValue } from './value-resolver.js';

const context = { taxonomy: new TaxonomyIndex(DEMO_TAXONOMY), shopCurrency: 'EUR' };

function entry(key: string, settings: Partial<ResolvableEntry> = {}): ResolvableEntry {
  const definition = DEMO_ATTRIBUTES.find((a) => a.key === key) as AttributeDefinition;
  return {
    path: `test.${key}`,
    attribute: key,
    definition,
    values: null,
    caseSensitive: false,
    unknownValues: 'gap',
    currency: null,
    default: null,
    ...settings,
  };
}

const value = (v: unknown) => ({ kind: 'value', value: v });

describe('resolveValue', () => {
  it('matches DROPDOWN values ignoring case and surrounding spaces, as the account spells them', () => {
    expect(resolveValue(entry('color'), ' navy ', context)).toEqual(value('Navy'));
    expect(resolveValue(entry('size'), 'one size', context)).toEqual(value('One Size'));
    expect(resolveValue(entry('color', { caseSensitive: true }), 'navy', context)).toMatchObject({
      kind: 'gap',
      reason: 'unknown-value',
      values: ['navy'],
    });
  });

  it('goes through the value map first, ignoring case', () => {
    const values: ValueMap = [
      ['Gray', 'Grey'],
      ['Mixed', null],
    ];
    expect(resolveValue(entry('color', { values }), 'GRAY', context)).toEqual(value('Grey'));
    expect(resolveValue(entry('color', { values }), 'mixed', context)).toEqual(value(null));
  });

  it('records an unknown value as a gap naming the entry, never a value the catalog refuses', () => {
    const resolution = resolveValue(entry('color', { path: 'variant.options.Color' }), 'Teal', context);
    expect(resolution).toEqual({
      kind: 'gap',
      reason: 'unknown-value',
      values: ['Teal'],
      message:
        '"Teal" is not an allowed value of color: add it to variant.options.Color.values, or to the attribute in the catalog',
    });
  });

  it('maps MULTI_SELECT lists item by item: unknown items make a gap, or are dropped when asked', () => {
    const values: ValueMap = [['office', 'Work']];
    expect(resolveValue(entry('occasions', { values }), ['Office', 'casual', 'work'], context)).toEqual(
      value(['Work', 'Casual']),
    );
    expect(resolveValue(entry('occasions'), ['casual', 'gala', 'party'], context)).toMatchObject({
      kind: 'gap',
      values: ['gala', 'party'],
    });
    expect(resolveValue(entry('occasions', { unknownValues: 'drop' }), ['gala', 'casual'], context)).toEqual(
      value(['Casual']),
    );
    expect(resolveValue(entry('occasions', { unknownValues: 'drop' }), ['gala'], context)).toEqual(
      value(null),
    );
  });

  it('assigns only leaf categories', () => {
    const values: ValueMap = [['Shirts', 'apparel-tops-shirts']];
    expect(resolveValue(entry('productCategory', { values }), 'shirts', context)).toEqual(
      value('apparel-tops-shirts'),
    );
    expect(resolveValue(entry('productCategory'), 'FOOTWEAR-BOOTS', context)).toEqual(
      value('footwear-boots'),
    );
    expect(resolveValue(entry('productCategory'), 'apparel-tops', context)).toMatchObject({
      kind: 'gap',
      message: expect.stringMatching(
        /^category "apparel-tops" is not a leaf category of the account \(it has apparel-tops-\w+/,
      ),
    });
    expect(resolveValue(entry('productCategory'), 'Accessories', context)).toMatchObject({
      kind: 'gap',
      values: ['Accessories'],
      message: expect.stringMatching(/^category "Accessories" is not a category of the account: map it/),
    });
  });

  it('sends prices as strings, with the currency the entry asks for', () => {
    expect(resolveValue(entry('price'), '19.99', context)).toEqual(value('19.99'));
    expect(resolveValue(entry('price', { currency: 'shop' }), '19.99', context)).toEqual(value('19.99 EUR'));
    expect(resolveValue(entry('price', { currency: 'CHF' }), '5', context)).toEqual(value('5 CHF'));
    expect(
      resolveValue(entry('price', { currency: 'shop' }), '1', { ...context, shopCurrency: null }),
    ).toMatchObject({ kind: 'gap', reason: 'invalid-value' });
    expect(resolveValue(entry('price'), '1.23456', context)).toMatchObject({
      kind: 'gap',
      reason: 'invalid-value',
    });
  });

  it('keeps short text short and on one line', () => {
    expect(resolveValue(entry('name'), 'Basic tee', context)).toEqual(value('Basic tee'));
    expect(resolveValue(entry('name'), 'a\nb', context)).toMatchObject({
      kind: 'gap',
      reason: 'invalid-value',
    });
    expect(resolveValue(entry('name'), 'x'.repeat(256), context)).toMatchObject({
      kind: 'gap',
      message: expect.stringContaining('longer than 255 characters (256)'),
    });
    expect(resolveValue(entry('description'), '<p>a\nb</p>', context)).toEqual(value('<p>a\nb</p>'));
  });

  it('counts the 255-character limit in characters (code points), not UTF-16 units', () => {
    // 200 emoji: 400 UTF-16 units, 200 characters.
    expect(resolveValue(entry('name'), '👕'.repeat(200), context)).toEqual(value('👕'.repeat(200)));
    expect(resolveValue(entry('name'), '👕'.repeat(256), context)).toMatchObject({
      kind: 'gap',
      message: expect.stringContaining('longer than 255 characters (256)'),
    });
  });

  it('turns other types into their wire format', () => {
    expect(resolveValue(entry('weightGrams'), ' 250 ', context)).toEqual(value('250'));
    expect(resolveValue(entry('weightGrams'), '250g', context)).toMatchObject({ kind: 'gap' });
    expect(resolveValue(entry('releaseDate'), '2026-03-01T08:00:00Z', context)).toEqual(value('2026-03-01'));
    expect(resolveValue(entry('availableFrom'), '2026-03-01T08:00:00Z', context)).toEqual(
      value('2026-03-01T08:00:00Z'),
    );
    expect(resolveValue(entry('manufacturerUrl'), 'ftp://x', context)).toMatchObject({ kind: 'gap' });
  });

  it('uses the default for an empty field, and null without one', () => {
    expect(resolveValue(entry('brand', { default: 'Unbranded' }), null, context)).toEqual(value('Unbranded'));
    expect(resolveValue(entry('brand'), null, context)).toEqual(value(null));
  });
});
