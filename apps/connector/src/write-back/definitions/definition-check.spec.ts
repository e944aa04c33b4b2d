import { describe, expect, it } from 'vitest';
import { writeBackEntry } from '../../../test/support/write-back-mapping.js';
import { parseMappingFile } from '../../mapping/parse-mapping-file.js';
import { definitionAction } from './definition-check.js';

const metafield = (namespace: string, type: string) =>
  ({ kind: 'metafield', namespace, key: 'material', type }) as const;

describe('definitionAction', () => {
  it('creates a missing definition with the mapping type, merchant read and write, and the storefront access', () => {
    const entry = {
      ...writeBackEntry('material', 'TEXT', metafield('$app:catalog', 'single_line_text_field')),
      metafieldDefinition: {
        name: 'Material',
        description: 'From the catalog',
        storefront: 'PUBLIC_READ' as const,
      },
    };
    expect(definitionAction(entry, null)).toEqual({
      kind: 'create',
      input: {
        name: 'Material',
        namespace: '$app:catalog',
        key: 'material',
        type: 'single_line_text_field',
        ownerType: 'PRODUCT',
        description: 'From the catalog',
        access: { admin: 'MERCHANT_READ_WRITE', storefront: 'PUBLIC_READ' },
      },
    });
  });

  it("sets no admin access in a merchant's namespace (Shopify refuses it there), and variants own PRODUCTVARIANT", () => {
    const entry = writeBackEntry(
      'material',
      'TEXT',
      metafield('custom', 'single_line_text_field'),
      'variant',
    );
    expect(definitionAction(entry, null)).toMatchObject({
      kind: 'create',
      input: { ownerType: 'PRODUCTVARIANT', name: 'material', access: { storefront: 'NONE' } },
    });
    const create = definitionAction(entry, null);
    expect(create.kind === 'create' && 'admin' in (create.input.access as object)).toBe(false);
  });

  it('keeps a definition of the same type, and stops the target on another type, naming both', () => {
    const entry = writeBackEntry('material', 'TEXT', metafield('$app:catalog', 'single_line_text_field'));
    const existing = (type: string) => ({
      id: 'gid://shopify/MetafieldDefinition/1',
      type: { name: type },
      access: { admin: null, storefront: null },
    });
    expect(definitionAction(entry, existing('single_line_text_field'))).toEqual({ kind: 'exists' });
    const stop = definitionAction(entry, existing('number_integer'));
    expect(stop).toMatchObject({ kind: 'stop' });
    expect(stop.kind === 'stop' && stop.message).toContain(
      "writeBack.product.material: Shopify's product metafield definition $app:catalog.material has type number_integer, the mapping says single_line_text_field",
    );
  });
});

describe('metafield definition settings in the mapping file', () => {
  it('reads name, description and storefront beside the type; the name defaults to the attribute', () => {
    const file = parseMappingFile(`
version: 1
product:
  title: name
  vendor: brand
writeBack:
  product:
    material:
      metafield: { namespace: $app:catalog, key: material, type: single_line_text_field, name: Material, description: Woven, storefront: public_read }
    care:
      metafield: { namespace: $app:catalog, key: care, type: multi_line_text_field }
`);
    expect(file.writeBack.map((e) => e.metafieldDefinition)).toEqual([
      { name: 'Material', description: 'Woven', storefront: 'PUBLIC_READ' },
      { name: 'care', description: null, storefront: 'NONE' },
    ]);
  });
});
