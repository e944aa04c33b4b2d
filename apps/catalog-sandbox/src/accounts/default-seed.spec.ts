import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { USER_ATTRIBUTE_TYPES } from '#lib/catalog-contract';
import { parseAccountDefinition } from './account-definition.js';

interface Node {
  id: string;
  children?: Node[];
}

// The shipped seed must stay a realistic account (issue: "A default seed ... with a realistic account").
describe('default seed', () => {
  const seed = JSON.parse(readFileSync(new URL('../../seed/default.json', import.meta.url), 'utf8'));
  const account = parseAccountDefinition(seed.accounts[0]);
  const attributes = account.attributes ?? [];
  const depth = (n: Node): number => 1 + Math.max(0, ...(n.children ?? []).map(depth));
  const branchIds = new Set<string>();
  const leafIds = new Set<string>();
  const walk = (n: Node) => {
    if (n.children?.length) branchIds.add(n.id);
    else leafIds.add(n.id);
    for (const c of n.children ?? []) walk(c);
  };
  for (const root of account.taxonomy ?? []) walk(root as Node);

  it('has a taxonomy at least three levels deep', () => {
    expect(Math.max(...(account.taxonomy ?? []).map((n) => depth(n as Node)))).toBeGreaterThanOrEqual(3);
  });

  it('has attributes of every user type, with values for DROPDOWN and MULTI_SELECT', () => {
    expect(new Set(attributes.map((a) => a.type))).toEqual(new Set(USER_ATTRIBUTE_TYPES));
    for (const a of attributes.filter((x) => x.type === 'DROPDOWN' || x.type === 'MULTI_SELECT')) {
      expect(a.option?.values?.length, a.key).toBeGreaterThan(1);
    }
  });

  it('has variant-specific size and color', () => {
    for (const key of ['size', 'color'])
      expect(attributes.find((a) => a.key === key)?.option?.variantable).toBe(true);
  });

  it('links attributes globally, to a branch and to a leaf', () => {
    expect(attributes.some((a) => a.categories === null)).toBe(true);
    expect(attributes.some((a) => a.categories?.some((c) => branchIds.has(c)))).toBe(true);
    expect(attributes.some((a) => a.categories?.some((c) => leafIds.has(c)))).toBe(true);
  });

  it('has a disabled attribute, AI on and off, and both classes', () => {
    expect(attributes.some((a) => a.option?.disabled)).toBe(true);
    expect(attributes.some((a) => a.ai?.enabled)).toBe(true);
    expect(attributes.some((a) => !a.ai?.enabled)).toBe(true);
    expect(new Set(attributes.map((a) => a.class))).toEqual(new Set(['CUSTOM', 'LIB']));
  });

  it('keeps AI-content attributes apart from source attributes', () => {
    const ai = attributes.filter((a) => a.key.startsWith('ai') || a.key.startsWith('seo'));
    expect(ai.length).toBeGreaterThanOrEqual(4);
    expect(ai.every((a) => a.ai?.enabled)).toBe(true);
    expect(attributes.find((a) => a.key === 'material')?.ai?.enabled).toBe(true);
  });
});
