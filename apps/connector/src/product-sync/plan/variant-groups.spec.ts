import { describe, expect, it } from 'vitest';
import { type GroupableVariant, variantGroups } from './variant-groups.js';

/** `colours` × `sizes` variants, colour first, in position order (colour by colour). */
function matrix(colours: Array<[id: number, name: string]>, sizes: number): GroupableVariant[] {
  const variants: GroupableVariant[] = [];
  for (const [colourId, colour] of colours) {
    for (let size = 1; size <= sizes; size++) {
      variants.push({
        id: `gid://shopify/ProductVariant/${variants.length + 1}`,
        position: variants.length + 1,
        selectedOptions: [
          { name: 'Colour', value: colour, optionValueId: `gid://shopify/ProductOptionValue/${colourId}` },
          {
            name: 'Size',
            value: `S${size}`,
            optionValueId: `gid://shopify/ProductOptionValue/${1000 + size}`,
          },
        ],
      });
    }
  }
  return variants;
}

const input = (variants: GroupableVariant[]) => ({ prefix: 'demo', productId: '42', variants });

describe('variantGroups', () => {
  it('keeps a product within the limit one parent, under its own supplierSku', () => {
    const groups = variantGroups(input(matrix([[7, 'Red']], 200)));
    expect(groups).toHaveLength(1);
    expect(groups[0]).toMatchObject({ key: 'all', supplierSku: 'demo:product:42' });
    expect(groups[0]?.variantIds).toHaveLength(200);
  });

  it('makes 3 colours × 200 sizes 3 parents of 200, one per colour, keyed by the value ids', () => {
    const groups = variantGroups(
      input(
        matrix(
          [
            [7, 'Red'],
            [8, 'Green'],
            [9, 'Blue'],
          ],
          200,
        ),
      ),
    );
    expect(groups.map((g) => [g.supplierSku, g.variantIds.length])).toEqual([
      ['demo:product:42:7', 200],
      ['demo:product:42:8', 200],
      ['demo:product:42:9', 200],
    ]);
    expect(groups[1]?.variantIds[0]).toBe('gid://shopify/ProductVariant/201');
  });

  it('chunks a colour over the limit by position: 2 colours × 1,024 sizes are 12 parents, 6 per colour', () => {
    const groups = variantGroups(
      input(
        matrix(
          [
            [7, 'Red'],
            [8, 'Green'],
          ],
          1024,
        ),
      ),
    );
    expect(groups).toHaveLength(12);
    expect(groups.map((g) => g.key)).toEqual([
      '7',
      '7-2',
      '7-3',
      '7-4',
      '7-5',
      '7-6',
      '8',
      '8-2',
      '8-3',
      '8-4',
      '8-5',
      '8-6',
    ]);
    expect(groups.map((g) => g.variantIds.length)).toEqual([
      200, 200, 200, 200, 200, 24, 200, 200, 200, 200, 200, 24,
    ]);
  });

  it('moves nothing when an option value is renamed, nor when variants are listed in another order', () => {
    const before = variantGroups(
      input(
        matrix(
          [
            [7, 'Red'],
            [8, 'Green'],
            [9, 'Blue'],
          ],
          200,
        ),
      ),
    );
    const renamed = matrix(
      [
        [7, 'Crimson'],
        [8, 'Green'],
        [9, 'Navy'],
      ],
      200,
    ).reverse();
    expect(variantGroups(input(renamed))).toEqual(before);
  });
});
