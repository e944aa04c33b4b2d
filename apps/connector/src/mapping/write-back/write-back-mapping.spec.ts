import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { demoCatalogConfiguration } from '../../../test/support/demo-catalog.js';
import { checkMapping } from '../check-mapping.js';
import { MappingError, type MappingProblem } from '../model/mapping-problem.js';
import { parseMappingFile } from '../parse-mapping-file.js';
import { isMetafieldType } from './metafield-types.data.js';
import { METAFIELD_TARGET_SOURCES } from './write-back-targets.js';

const DEMO = readFileSync(new URL('../../../mappings/demo.yaml', import.meta.url), 'utf8');
const BASE = `
version: 1
product:
  title: name
  vendor: brand
`;

/** The problems of a refused file: at parse time, or against the demo account. */
function problemsOf(text: string): MappingProblem[] {
  try {
    checkMapping(parseMappingFile(text), demoCatalogConfiguration());
  } catch (error) {
    if (error instanceof MappingError) return [...error.problems];
    throw error;
  }
  throw new Error('the mapping was accepted');
}

const lines = (problems: MappingProblem[]) => problems.map((p) => `${p.path}: ${p.message}`);

describe('write-back entries of a mapping file', () => {
  it('the demo mapping writes back exactly the reference list, in an app-owned namespace', () => {
    const mapping = checkMapping(parseMappingFile(DEMO, 'demo.yaml'), demoCatalogConfiguration());
    const targets = mapping.writeBack.map((e) => [e.level, e.attribute, e.definition.type, e.target]);
    const metafield = (key: string, type: string) => ({
      kind: 'metafield',
      namespace: '$app:catalog',
      key,
      type,
    });
    expect(targets).toEqual([
      ['product', 'seoTitle', 'TEXT', { kind: 'field', field: 'seo.title' }],
      ['product', 'seoDescription', 'LONG_TEXT', { kind: 'field', field: 'seo.description' }],
      ['product', 'aiTags', 'MULTI_SELECT', { kind: 'tags' }],
      ['product', 'aiDescription', 'RICH_TEXT', metafield('ai_description', 'rich_text_field')],
      ['product', 'material', 'TEXT', metafield('material', 'single_line_text_field')],
      ['product', 'careInstructions', 'LONG_TEXT', metafield('care_instructions', 'multi_line_text_field')],
      ['product', 'aiBulletPoints', 'LONG_TEXT', metafield('bullet_points', 'list.single_line_text_field')],
      ['variant', 'variantTitle', 'TEXT', metafield('variant_title', 'single_line_text_field')],
    ]);
    expect(mapping.writeBack.every((e) => e.merchantEdits === 'keep')).toBe(true);
    // One owner per field: nothing written back is fed from Shopify.
    for (const entry of mapping.writeBack) expect(mapping.ownedAttributes.has(entry.attribute)).toBe(false);
  });

  it('reads the object form with merchantEdits', () => {
    const file = parseMappingFile(`${BASE}
writeBack:
  product:
    seoTitle: { target: seo.title, merchantEdits: overwrite }
    aiTags: { target: tags }
    material: { metafield: { namespace: custom, key: material, type: single_line_text_field }, merchantEdits: keep }
`);
    expect(file.writeBack.map((e) => [e.attribute, e.target.kind, e.merchantEdits])).toEqual([
      ['seoTitle', 'field', 'overwrite'],
      ['aiTags', 'tags', 'keep'],
      ['material', 'metafield', 'keep'],
    ]);
  });

  it('refuses metafield names and types Shopify refuses, naming each with its line', () => {
    const problems = problemsOf(`${BASE}
writeBack:
  product:
    material: { metafield: { namespace: ab, key: m, type: rich_text } }
    careInstructions: { metafield: { namespace: shopify, key: care, type: multi_line_text_field } }
    aiBulletPoints: { metafield: { namespace: "$app:my space", key: bullets, type: list.rich_text_field } }
    seoTitle: { target: seo.title, metafield: { namespace: custom, key: seo, type: url }, merchantEdits: always }
`);
    expect(lines(problems)).toEqual([
      'writeBack.product.material.metafield.namespace: "ab" must be 3-255 letters, digits, "-" or "_" (or "$app", "$app:<name>")',
      'writeBack.product.material.metafield.key: "m" must be 2-64 letters, digits, "-" or "_"',
      'writeBack.product.material.metafield.type: "rich_text" is not a Shopify metafield type (did you mean "rich_text_field"?)',
      'writeBack.product.careInstructions.metafield.namespace: "shopify" is reserved (Shopify\'s, or an app\'s by id): write "$app" or "$app:<name>" for the connector\'s own namespace',
      'writeBack.product.aiBulletPoints.metafield.namespace: "$app:my space": after "$app:" only letters, digits, "-" and "_" may follow',
      'writeBack.product.aiBulletPoints.metafield.type: "rich_text_field" has no list form: "list.rich_text_field" is not a Shopify metafield type',
      'writeBack.product.seoTitle.merchantEdits: must be one of keep, overwrite, got "always"',
      'writeBack.product.seoTitle: needs one target: a field name, "tags", {target: <field name>} or {metafield: {namespace, key, type}}',
    ]);
    expect(problems[0]?.line).toBe(9);
  });

  it('refuses, against the account, a catalog type its target cannot hold', () => {
    const problems = problemsOf(`${BASE}
writeBack:
  product:
    aiTags: seo.title
    aiDescription: { metafield: { namespace: $app, key: ai_description, type: number_integer } }
    releaseDate: { metafield: { namespace: $app, key: released, type: product_reference } }
    occasions: tags
    seoDescription: { metafield: { namespace: $app, key: seo_description, type: single_line_text_field } }
`);
    expect(lines(problems)).toEqual([
      'writeBack.product.aiTags: "seo.title" takes TEXT, DROPDOWN, LONG_TEXT values, the attribute is MULTI_SELECT; a MULTI_SELECT value fits metafields of type list.single_line_text_field (or json)',
      'writeBack.product.aiDescription: a metafield of type "number_integer" takes NUMBER values, the attribute is RICH_TEXT; a RICH_TEXT value fits metafields of type multi_line_text_field, rich_text_field (or json)',
      expect.stringMatching(
        /^writeBack\.product\.releaseDate: the connector writes no catalog value to a metafield of type "product_reference"/,
      ),
      'writeBack.product.seoDescription: a metafield of type "single_line_text_field" takes TEXT, DROPDOWN, URL, NUMBER, PRICE, MEASURE, DATE, DATETIME values, the attribute is LONG_TEXT; a LONG_TEXT value fits metafields of type multi_line_text_field, rich_text_field, list.single_line_text_field (or json)',
    ]);
  });

  it('refuses a Shopify field that is both an inbound source and a write-back target', () => {
    expect(
      lines(
        problemsOf(`${BASE}
  seo.title: externalCategory
writeBack:
  product:
    seoTitle: { target: seo.title, merchantEdits: overwrite }
`),
      ),
    ).toEqual([
      'writeBack.product.seoTitle: Shopify field "seo.title" is an inbound source (product.seo.title): a field has one owner',
    ]);
  });

  it('accepts the write-back example of mappings/README.md', () => {
    const readme = readFileSync(new URL('../../../mappings/README.md', import.meta.url), 'utf8');
    const example = [...readme.matchAll(/```yaml\n([\s\S]*?)```/g)]
      .map((m) => m[1] ?? '')
      .find((y) => y.startsWith('writeBack:'));
    const mapping = checkMapping(parseMappingFile(`${BASE}${example}`), demoCatalogConfiguration());
    expect(mapping.writeBack.map((e) => `${e.path} ${e.merchantEdits}`)).toEqual([
      'writeBack.product.seoTitle keep',
      'writeBack.product.aiTags keep',
      'writeBack.product.aiDescription keep',
      'writeBack.product.seoDescription overwrite',
      'writeBack.variant.variantTitle keep',
    ]);
  });

  it('converts only to metafield types that exist', () => {
    for (const type of Object.keys(METAFIELD_TARGET_SOURCES)) expect(isMetafieldType(type)).toBe(true);
  });
});
