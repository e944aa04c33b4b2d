import { getOperationAST, parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { jsonlLines, UNGROUPED_BLOCK } from './bulk-jsonl.js';

function selection(query: string) {
  const operation = getOperationAST(parse(query));
  if (!operation) throw new Error('no operation');
  return operation.selectionSet;
}

const QUERY = '{ products { edges { node { id t: title variants { edges { node { id } } } } } } }';

function data(count: number) {
  const edges = Array.from({ length: count }, (_, i) => ({
    node: {
      id: `gid://shopify/Product/${i}`,
      t: `P${i}`,
      variants: { edges: [{ node: { id: `gid://shopify/ProductVariant/${i}` } }] },
    },
  }));
  return { products: { edges } };
}

describe('jsonlLines', () => {
  it('keeps aliases, drops the nested connection from its parent and marks the roots', () => {
    const lines = jsonlLines(data(1), selection(QUERY), {}, true);
    expect(lines).toEqual([
      { text: '{"id":"gid:\\/\\/shopify\\/Product\\/0","t":"P0"}', root: true },
      {
        text: '{"id":"gid:\\/\\/shopify\\/ProductVariant\\/0","__parentId":"gid:\\/\\/shopify\\/Product\\/0"}',
        root: false,
      },
    ]);
  });

  it('without grouping, writes each block of root objects before their children', () => {
    const count = UNGROUPED_BLOCK + 2;
    const kinds = jsonlLines(data(count), selection(QUERY), {}, false).map((l) => (l.root ? 'P' : 'V'));
    expect(kinds.join('')).toBe(`${'P'.repeat(UNGROUPED_BLOCK)}${'V'.repeat(UNGROUPED_BLOCK)}PPVV`);
  });

  it('follows fragments and writes nested connections inside plain objects under the node', () => {
    const query = `{ products { edges { node { ...F } } } }
      fragment F on Product { id seo { title } variants { edges { node { id } } } }`;
    const document = parse(query);
    const fragments = Object.fromEntries(
      document.definitions.flatMap((d) => (d.kind === 'FragmentDefinition' ? [[d.name.value, d]] : [])),
    );
    const value = {
      products: {
        edges: [{ node: { id: 'P1', seo: { title: 'S' }, variants: { edges: [{ node: { id: 'V1' } }] } } }],
      },
    };
    const lines = jsonlLines(value, selection(query), fragments, true).map((l) => JSON.parse(l.text));
    expect(lines).toEqual([
      { id: 'P1', seo: { title: 'S' } },
      { id: 'V1', __parentId: 'P1' },
    ]);
  });
});
