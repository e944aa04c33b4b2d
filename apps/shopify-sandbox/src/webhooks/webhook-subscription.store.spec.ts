import { describe, expect, it } from 'vitest';
import { topicHeader } from './webhook-subscription.store.js';

describe('topicHeader', () => {
  it('splits after the resource, one word or two', () => {
    expect(topicHeader('PRODUCTS_UPDATE')).toBe('products/update');
    expect(topicHeader('APP_UNINSTALLED')).toBe('app/uninstalled');
    expect(topicHeader('COLLECTIONS_CREATE')).toBe('collections/create');
    expect(topicHeader('BULK_OPERATIONS_FINISH')).toBe('bulk_operations/finish');
    expect(topicHeader('INVENTORY_LEVELS_UPDATE')).toBe('inventory_levels/update');
  });
});
