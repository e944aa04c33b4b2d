import { getOperationAST, parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { adminSchema } from './admin-schema.js';
import { actualQueryCost, requestedQueryCost } from './graphql-cost.js';

function costInput(query: string, variables: Record<string, unknown> = {}) {
  const document = parse(query);
  const operation = getOperationAST(document);
  if (!operation) throw new Error('no operation');
  const fragments = Object.fromEntries(
    document.definitions.flatMap((d) => (d.kind === 'FragmentDefinition' ? [[d.name.value, d]] : [])),
  );
  return { schema: adminSchema(), operation, fragments, variables };
}

describe('query cost', () => {
  it('charges 1 per object, 0 per scalar', () => {
    expect(requestedQueryCost(costInput('{ product(id: "x") { id title seo { title } } }'))).toBe(2);
  });

  it('charges a connection 2 + first × item cost, nested', () => {
    const query =
      '{ products(first: 10) { edges { cursor node { id variants(first: 5) { nodes { id } } } } pageInfo { hasNextPage } } }';
    // item = 1 (product) + 2 + 5 × 1 (variants) = 8; 2 + 10 × 8 = 82
    expect(requestedQueryCost(costInput(query))).toBe(82);
  });

  it('reads first from variables and follows fragments', () => {
    const query = `query($n: Int!) { products(first: $n) { nodes { ...P } } } fragment P on Product { id options { name } }`;
    expect(requestedQueryCost(costInput(query, { n: 3 }))).toBe(2 + 3 * 2);
  });

  it('charges a mutation root field 10 plus what its payload selects', () => {
    const query =
      'mutation { a: tagsAdd(id: "x", tags: ["a"]) { node { id } } b: tagsRemove(id: "x", tags: ["a"]) { node { id } userErrors { message } } }';
    expect(requestedQueryCost(costInput(query))).toBe(10 + 1 + (10 + 1 + 1));
    const input = costInput(query);
    // A payload that came back null costs only the 10.
    expect(actualQueryCost(input, { a: null, b: { node: null, userErrors: [] } })).toBe(10 + (10 + 1 + 1));
  });

  it('counts the items of connections nested in lists for the actual cost', () => {
    const input = costInput('{ products(first: 10) { nodes { id variants(first: 20) { nodes { id } } } } }');
    // item = 1 + (2 + 20 × 1) = 23; 2 + 10 × 23 = 232
    expect(requestedQueryCost(input)).toBe(232);
    const data = {
      products: {
        nodes: [
          { id: 'a', variants: { nodes: [{ id: 'v1' }, { id: 'v2' }] } },
          { id: 'b', variants: { nodes: [] } },
        ],
      },
    };
    // 2 + (1 + 2 + 2) + (1 + 2) = 10
    expect(actualQueryCost(input, data)).toBe(10);
  });

  it('charges an interface the dearest of its possible types', () => {
    const query = `{ node(id: "x") { id ... on Product { variants(first: 5) { nodes { id } } } ... on ProductVariant { product { id } } } }`;
    // Product: 1 + (2 + 5) = 8 beats ProductVariant: 1 + 1 = 2
    expect(requestedQueryCost(costInput(query))).toBe(8);
  });

  it('computes the actual cost from the items returned', () => {
    const input = costInput('{ products(first: 50) { nodes { id } } }');
    expect(requestedQueryCost(input)).toBe(52);
    expect(actualQueryCost(input, { products: { nodes: [{ id: 'a' }, { id: 'b' }] } })).toBe(4);
  });
});
