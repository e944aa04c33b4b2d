import { describe, expect, it } from 'vitest';
import type {
  AttributeDefinition,
  AttributeSearchRequest,
  AttributeSearchResponse,
} from '#lib/catalog-contract';
import { readCatalogConfiguration } from './mapping-boot-check.js';

/**
 * A catalog whose attribute search has a page size of its own (7, not 500), refuses any larger
 * limit asked (as a maximum the spec does not state would), and says when there is no more.
 */
function catalogOf(count: number) {
  const all = Array.from({ length: count }, (_, i) => ({ key: `attr${i}` }) as AttributeDefinition);
  const bodies: AttributeSearchRequest[] = [];
  return {
    bodies,
    async searchAttributes(body: AttributeSearchRequest): Promise<AttributeSearchResponse> {
      bodies.push(body);
      const limit = body.pagination?.limit ?? 7;
      if (limit > 7) throw new Error(`pagination_limit_exceeded: ${limit} is above the maximum of 7`);
      const offset = body.pagination?.offset ?? 0;
      const attributes = all.slice(offset, offset + limit);
      return {
        attributes,
        pagination: { limit, offset, total: count, hasMore: offset + attributes.length < count },
      };
    },
    async getTaxonomy() {
      return { tree: [] };
    },
  };
}

describe('reading the account configuration', () => {
  it('pages the attribute search until the catalog says there is no more, at the page size it chooses', async () => {
    const catalog = catalogOf(23);
    const { attributes } = await readCatalogConfiguration(catalog);
    expect(attributes.map((a) => a.key)).toEqual(Array.from({ length: 23 }, (_, i) => `attr${i}`));
    expect(catalog.bodies.map((b) => b.pagination?.offset)).toEqual([0, 7, 14, 21]);
  });
});
