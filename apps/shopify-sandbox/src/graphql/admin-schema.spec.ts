import { describe, expect, it } from 'vitest';
import { adminSchema } from './admin-schema.js';

describe('adminSchema', () => {
  it('is the real 2026-07 Admin schema, built once', () => {
    const schema = adminSchema();
    expect(schema).toBe(adminSchema());
    expect(schema.getQueryType()?.name).toBe('QueryRoot');
    const mutations = schema.getMutationType()?.getFields() ?? {};
    expect(Object.keys(mutations).length).toBe(518);
    expect(mutations.productVariantsBulkUpdate.args.map((a) => a.name)).toContain('productId');
  });
});
