import { describe, expect, it } from 'vitest';
import { parseCollectionBody } from './collection-input.js';

describe('collection bodies', () => {
  it('reads a custom collection with its collects', () => {
    expect(
      parseCollectionBody(
        {
          custom_collection: {
            title: ' Summer ',
            sort_order: 'alpha-asc',
            published: false,
            collects: [{ product_id: 7 }],
          },
        },
        'custom',
        'create',
      ),
    ).toEqual({ input: { title: 'Summer', sortOrder: 'alpha-asc', published: false, productIds: [7] } });
  });

  it('refuses a missing root, a blank title, an unknown sort order', () => {
    expect(parseCollectionBody({}, 'custom', 'create')).toEqual({
      errors: { custom_collection: ['Required parameter missing or invalid'] },
    });
    expect(
      parseCollectionBody({ custom_collection: { title: '', sort_order: 'random' } }, 'custom', 'create'),
    ).toEqual({
      errors: { title: ["can't be blank"], sort_order: ['is not included in the list'] },
    });
  });

  it('requires rules on a new smart collection, not on an update', () => {
    expect(parseCollectionBody({ smart_collection: { title: 'S' } }, 'smart', 'create')).toEqual({
      errors: { rules: ['must be an array'] },
    });
    expect(parseCollectionBody({ smart_collection: { disjunctive: true } }, 'smart', 'update')).toEqual({
      input: { disjunctive: true },
    });
  });
});
